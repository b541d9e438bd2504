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
	"loyalty_points_per_unit" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "merchants_slug_unique" UNIQUE("slug"),
	CONSTRAINT "merchants_loyalty_rule_nonnegative" CHECK ("merchants"."loyalty_points_per_unit" >= 0)
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
	"max_quantity" integer,
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
CREATE TABLE "order_lines" (
	"order_id" text NOT NULL,
	"position" integer NOT NULL,
	"cart_line_id" text NOT NULL,
	"product_id" text NOT NULL,
	"category_id" text NOT NULL,
	"name" text NOT NULL,
	"quantity" integer NOT NULL,
	"base_price_minor" bigint NOT NULL,
	"unit_price_minor" bigint NOT NULL,
	"total_minor" bigint NOT NULL,
	"discount_minor" bigint NOT NULL,
	"selections" jsonb NOT NULL,
	"special_instructions" text NOT NULL,
	CONSTRAINT "order_lines_order_id_position_pk" PRIMARY KEY("order_id","position")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"cart_id" text NOT NULL,
	"attempt_id" text NOT NULL,
	"location_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"customer_id" text,
	"currency" text NOT NULL,
	"restaurant_display_name" text NOT NULL,
	"statement_descriptor" text NOT NULL,
	"marketplace_id" text,
	"fulfilment_method" text NOT NULL,
	"pickup_type" text NOT NULL,
	"order_date" text NOT NULL,
	"order_time" text NOT NULL,
	"delivery_info" jsonb,
	"table_service_info" jsonb,
	"room_service_info" jsonb,
	"discount_code" text,
	"quote_fingerprint" text NOT NULL,
	"totals" jsonb NOT NULL,
	"amount_charged_minor" bigint NOT NULL,
	"processor" text NOT NULL,
	"payment_intent_id" text NOT NULL,
	"card_brand" text,
	"card_last4" text,
	"placed_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	CONSTRAINT "orders_cart_id_unique" UNIQUE("cart_id"),
	CONSTRAINT "orders_attempt_id_unique" UNIQUE("attempt_id"),
	CONSTRAINT "orders_payment_intent_id_unique" UNIQUE("payment_intent_id"),
	CONSTRAINT "orders_amount_matches_total" CHECK ("orders"."amount_charged_minor" = ("orders"."totals"->>'orderTotalWithServiceFee')::bigint)
);
--> statement-breakpoint
CREATE TABLE "payment_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"cart_id" text NOT NULL,
	"intent_id" text NOT NULL,
	"source" text NOT NULL,
	"payment_method_id" text,
	"confirm_key" text,
	"confirmed_at" timestamp with time zone,
	"status" text NOT NULL,
	"failure_code" text,
	"failure_message" text,
	"created_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_sessions" (
	"cart_id" text PRIMARY KEY NOT NULL,
	"processor" text NOT NULL,
	"intent_id" text,
	"amount_minor" bigint,
	"currency" text,
	"quote_fingerprint" text,
	"version" integer DEFAULT 1 NOT NULL,
	"pending" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_sessions_intent_id_unique" UNIQUE("intent_id")
);
--> statement-breakpoint
CREATE TABLE "ratings" (
	"order_id" text PRIMARY KEY NOT NULL,
	"rating" integer NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ratings_rating_range" CHECK ("ratings"."rating" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"token_hash" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "receipts_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "receipts_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "customer_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"email" text,
	"phone_number" text,
	"phone_number_verified" boolean DEFAULT false NOT NULL,
	"customer_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"profile_picture" text DEFAULT '' NOT NULL,
	"processor_customer_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dev_outbox_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"sequence" bigserial NOT NULL,
	"channel" text NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loyalty_ledger_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"location_id" text NOT NULL,
	"order_id" text,
	"points" integer NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "loyalty_ledger_entries_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "loyalty_ledger_points_nonzero" CHECK ("loyalty_ledger_entries"."points" <> 0)
);
--> statement-breakpoint
CREATE TABLE "otp_challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"purpose" text NOT NULL,
	"channel" text NOT NULL,
	"identifier_key" text NOT NULL,
	"customer_id" text,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "otp_challenges_attempts_nonnegative" CHECK ("otp_challenges"."attempts" >= 0)
);
--> statement-breakpoint
CREATE TABLE "otp_failures" (
	"id" text PRIMARY KEY NOT NULL,
	"identifier_key" text NOT NULL,
	"challenge_id" text NOT NULL,
	"failed_at" timestamp with time zone NOT NULL
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
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."carts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_attempt_id_payment_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."payment_attempts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."carts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD CONSTRAINT "payment_sessions_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."carts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_sessions" ADD CONSTRAINT "customer_sessions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loyalty_ledger_entries" ADD CONSTRAINT "loyalty_ledger_entries_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loyalty_ledger_entries" ADD CONSTRAINT "loyalty_ledger_entries_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loyalty_ledger_entries" ADD CONSTRAINT "loyalty_ledger_entries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otp_challenges" ADD CONSTRAINT "otp_challenges_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otp_challenges" ADD CONSTRAINT "otp_challenges_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "categories_location_idx" ON "categories" USING btree ("location_id","sort_order");--> statement-breakpoint
CREATE UNIQUE INDEX "discounts_location_code_idx" ON "discounts" USING btree ("location_id","code");--> statement-breakpoint
CREATE INDEX "locations_merchant_idx" ON "locations" USING btree ("merchant_id");--> statement-breakpoint
CREATE INDEX "menus_location_idx" ON "menus" USING btree ("location_id","sort_order");--> statement-breakpoint
CREATE INDEX "products_location_sort_idx" ON "products" USING btree ("location_id","sort_order","id");--> statement-breakpoint
CREATE INDEX "products_location_popularity_idx" ON "products" USING btree ("location_id","popularity");--> statement-breakpoint
CREATE INDEX "carts_location_idx" ON "carts" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "carts_status_expires_idx" ON "carts" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "carts_customer_idx" ON "carts" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "idempotency_expires_idx" ON "idempotency_records" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "orders_customer_idx" ON "orders" USING btree ("customer_id","placed_at");--> statement-breakpoint
CREATE INDEX "orders_location_idx" ON "orders" USING btree ("location_id","placed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_one_pending_idx" ON "payment_attempts" USING btree ("cart_id") WHERE "payment_attempts"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "payment_attempts_cart_idx" ON "payment_attempts" USING btree ("cart_id","created_at");--> statement-breakpoint
CREATE INDEX "customer_sessions_customer_idx" ON "customer_sessions" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "customers_merchant_email_idx" ON "customers" USING btree ("merchant_id","email") WHERE "customers"."email" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_merchant_verified_phone_idx" ON "customers" USING btree ("merchant_id","phone_number") WHERE "customers"."phone_number_verified";--> statement-breakpoint
CREATE INDEX "dev_outbox_sequence_idx" ON "dev_outbox_messages" USING btree ("sequence");--> statement-breakpoint
CREATE INDEX "loyalty_ledger_customer_idx" ON "loyalty_ledger_entries" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "otp_challenges_identifier_idx" ON "otp_challenges" USING btree ("identifier_key","created_at");--> statement-breakpoint
CREATE INDEX "otp_failures_identifier_idx" ON "otp_failures" USING btree ("identifier_key","failed_at");