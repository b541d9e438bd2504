CREATE TABLE "categories" (
	"id" text PRIMARY KEY NOT NULL,
	"location_id" text NOT NULL,
	"menu_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discounts" (
	"id" text PRIMARY KEY NOT NULL,
	"location_id" text NOT NULL,
	"code" text NOT NULL,
	"rate" text,
	"amount_minor" bigint,
	"minimum_subtotal_minor" bigint DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "locations" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"slug" text NOT NULL,
	"display_name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"time_zone" text NOT NULL,
	"currency" text NOT NULL,
	"street" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"zip_code" text NOT NULL,
	"country" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"opening_hours" jsonb NOT NULL,
	"fulfilment" jsonb NOT NULL,
	"fees" jsonb NOT NULL,
	"gratuity" jsonb NOT NULL,
	"storefront_url" text,
	"catalog_revision" integer DEFAULT 1 NOT NULL,
	"policy_revision" integer DEFAULT 0 NOT NULL,
	"published" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "locations_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "menus" (
	"id" text PRIMARY KEY NOT NULL,
	"location_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"availability" jsonb,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "merchants" (
	"id" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"display_name" text NOT NULL,
	"statement_descriptor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "merchants_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" text PRIMARY KEY NOT NULL,
	"location_id" text NOT NULL,
	"category_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price_minor" bigint NOT NULL,
	"image_url" text DEFAULT '' NOT NULL,
	"available" boolean DEFAULT true NOT NULL,
	"popularity" integer DEFAULT 0 NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"modifier_groups" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "carts" (
	"id" text PRIMARY KEY NOT NULL,
	"location_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"status" text NOT NULL,
	"revision" bigint DEFAULT 0 NOT NULL,
	"token_hash" text,
	"customer_id" text,
	"currency" text NOT NULL,
	"restaurant_display_name" text NOT NULL,
	"statement_descriptor" text NOT NULL,
	"fulfilment_method" text NOT NULL,
	"fulfillment_identifier" text NOT NULL,
	"marketplace_id" text,
	"pickup_type" text NOT NULL,
	"order_date" text NOT NULL,
	"order_time" text NOT NULL,
	"lines" jsonb NOT NULL,
	"discount" jsonb,
	"gratuity" jsonb,
	"courier_tip_minor" bigint,
	"delivery_info" jsonb,
	"delivery_quote" jsonb,
	"table_service_info" jsonb,
	"room_service_info" jsonb,
	"metadata" jsonb,
	"priced" jsonb NOT NULL,
	"quote_fingerprint" text,
	"quote_expires_at" timestamp with time zone,
	"catalog_revision" integer NOT NULL,
	"policy_revision" integer NOT NULL,
	"catalog_revalidation" jsonb,
	"expires_at" timestamp with time zone NOT NULL,
	"locked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "carts_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "idempotency_records" (
	"scope" text NOT NULL,
	"operation" text NOT NULL,
	"key" text NOT NULL,
	"request_fingerprint" text NOT NULL,
	"status_code" integer NOT NULL,
	"response_sealed" text NOT NULL,
	"response_headers" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_records_scope_operation_key_pk" PRIMARY KEY("scope","operation","key")
);
--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_menu_id_menus_id_fk" FOREIGN KEY ("menu_id") REFERENCES "public"."menus"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discounts" ADD CONSTRAINT "discounts_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "menus" ADD CONSTRAINT "menus_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carts" ADD CONSTRAINT "carts_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "categories_location_idx" ON "categories" USING btree ("location_id","sort_order");--> statement-breakpoint
CREATE UNIQUE INDEX "discounts_location_code_idx" ON "discounts" USING btree ("location_id","code");--> statement-breakpoint
CREATE INDEX "locations_merchant_idx" ON "locations" USING btree ("merchant_id");--> statement-breakpoint
CREATE INDEX "menus_location_idx" ON "menus" USING btree ("location_id","sort_order");--> statement-breakpoint
CREATE INDEX "products_location_sort_idx" ON "products" USING btree ("location_id","sort_order","id");--> statement-breakpoint
CREATE INDEX "products_location_popularity_idx" ON "products" USING btree ("location_id","popularity");--> statement-breakpoint
CREATE INDEX "carts_location_idx" ON "carts" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "carts_status_expires_idx" ON "carts" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "carts_customer_idx" ON "carts" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "idempotency_expires_idx" ON "idempotency_records" USING btree ("expires_at");