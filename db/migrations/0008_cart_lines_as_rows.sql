-- A cart's lines become rows of their own (db/schema/carts.ts cartLines). As one JSON array on the cart
-- row, a change of one line of a 100-line cart made Postgres decompress, rewrite and compress about 70 KB
-- (lz4), and the service send it: 0.5-0.8 ms of every such change. Now it writes one row.
--
-- Deploying: the lines of every cart are copied in one statement, and the carts table rewritten; carts are
-- kept after they expire, so on a large table deploy this in a quiet hour. An instance of the previous
-- release fails its cart writes from here on (the column is gone): deploy with the old instances stopped.
CREATE TABLE "cart_lines" (
	"cart_id" text NOT NULL,
	"line_id" text NOT NULL,
	"seq" integer NOT NULL,
	"line" json NOT NULL,
	"priced" json NOT NULL,
	CONSTRAINT "cart_lines_cart_id_line_id_pk" PRIMARY KEY("cart_id","line_id")
);
--> statement-breakpoint
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."carts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cart_lines_order_idx" ON "cart_lines" USING btree ("cart_id","seq");--> statement-breakpoint
-- Each line with its priced form (matched by id, as the service matches them), in the order the array held.
-- Every write priced every line, so each has one; a line without would fail this statement (NOT NULL).
INSERT INTO "cart_lines" ("cart_id", "line_id", "seq", "line", "priced")
SELECT c."id", l.value->>'id', (l.ordinality - 1)::integer, l.value,
  (SELECT p.value FROM json_array_elements(c."priced"->'lines') p WHERE p.value->>'lineId' = l.value->>'id' LIMIT 1)
FROM "carts" c, json_array_elements(c."lines") WITH ORDINALITY l;--> statement-breakpoint
-- The totals stay on the cart, without the priced lines.
UPDATE "carts" SET "priced" = ("priced"::jsonb - 'lines')::json;--> statement-breakpoint
ALTER TABLE "carts" DROP COLUMN "lines";