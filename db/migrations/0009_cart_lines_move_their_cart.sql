-- A cart's lines are rows of "cart_lines" (migration 0008), and an instance knows a cart's lines by the cart
-- row's version (revision, xmin, updated_at: server/services/cart-access.ts): while that version stands, it
-- takes the lines it kept (kept-cart-lines.ts) and the view it rendered (rendered-carts.ts) instead of
-- reading them. The service writes a cart's line rows only in the statement that writes its cart row. A
-- writer that changes line rows alone (SQL by hand, a support fix) left the cart row as it was: every
-- instance went on answering the old lines at the same ETag, and the next change wrote them back over the
-- edit.
--
-- Now a statement that writes line rows of a cart whose row this transaction has not written moves that
-- cart to its next revision: every instance reads the lines again, a client holding the old ETag gets
-- CART_CONFLICT and reloads, and a change already under way for the old revision fails its compare-and-set
-- instead of overwriting the edit. The service's own writes, and any transaction that writes the cart row
-- as well, are left as they are (the cart row's xmin is then this transaction's). One statement-level
-- trigger per kind of write (a trigger with transition tables takes one event).
CREATE FUNCTION "cart_lines_move_their_cart"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "carts" c SET "revision" = c."revision" + 1
  FROM (SELECT DISTINCT "cart_id" FROM "changed_lines") l
  WHERE c."id" = l."cart_id" AND c."xmin" <> pg_current_xact_id()::xid;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "cart_lines_inserted_move_their_cart" AFTER INSERT ON "cart_lines"
  REFERENCING NEW TABLE AS "changed_lines" FOR EACH STATEMENT EXECUTE FUNCTION "cart_lines_move_their_cart"();--> statement-breakpoint
CREATE TRIGGER "cart_lines_updated_move_their_cart" AFTER UPDATE ON "cart_lines"
  REFERENCING NEW TABLE AS "changed_lines" FOR EACH STATEMENT EXECUTE FUNCTION "cart_lines_move_their_cart"();--> statement-breakpoint
CREATE TRIGGER "cart_lines_deleted_move_their_cart" AFTER DELETE ON "cart_lines"
  REFERENCING OLD TABLE AS "changed_lines" FOR EACH STATEMENT EXECUTE FUNCTION "cart_lines_move_their_cart"();
