CREATE TABLE "store_item_turmas" (
	"item_id" uuid NOT NULL,
	"turma_id" uuid NOT NULL,
	CONSTRAINT "store_item_turmas_item_id_turma_id_pk" PRIMARY KEY("item_id","turma_id")
);
--> statement-breakpoint
CREATE TABLE "store_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"image_id" uuid,
	"category" text NOT NULL,
	"currency" text NOT NULL,
	"price" integer,
	"goal" integer,
	"deadline" date,
	"stock" integer,
	"taken" integer DEFAULT 0 NOT NULL,
	"limit_count" integer,
	"limit_period" text,
	"available_from" date,
	"available_until" date,
	"active" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_items_category_known" CHECK ("store_items"."category" IN ('privilege', 'material', 'experience', 'turma')),
	CONSTRAINT "store_items_currency_known" CHECK ("store_items"."currency" IN ('meritus', 'estelecas')),
	CONSTRAINT "store_items_taken_within_stock" CHECK ("store_items"."taken" >= 0 AND ("store_items"."stock" IS NULL OR "store_items"."taken" <= "store_items"."stock")),
	CONSTRAINT "store_items_stock_nonnegative" CHECK ("store_items"."stock" >= 0),
	CONSTRAINT "store_items_limit_whole" CHECK (("store_items"."limit_count" IS NULL) = ("store_items"."limit_period" IS NULL) AND "store_items"."limit_count" >= 1 AND "store_items"."limit_period" IN ('week', 'month', 'year', 'ever')),
	CONSTRAINT "store_items_period_order" CHECK ("store_items"."available_from" <= "store_items"."available_until"),
	CONSTRAINT "store_items_price_or_goal" CHECK (CASE WHEN "store_items"."category" = 'turma'
        THEN "store_items"."price" IS NULL AND "store_items"."goal" IS NOT NULL AND "store_items"."goal" > 0 AND "store_items"."deadline" IS NOT NULL AND "store_items"."stock" IS NULL AND "store_items"."limit_count" IS NULL
        ELSE "store_items"."price" IS NOT NULL AND "store_items"."price" > 0 AND "store_items"."goal" IS NULL AND "store_items"."deadline" IS NULL END)
);
--> statement-breakpoint
CREATE TABLE "store_limit_uses" (
	"item_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"period_start" date NOT NULL,
	"used" integer NOT NULL,
	"allowed" integer NOT NULL,
	CONSTRAINT "store_limit_uses_item_id_student_id_period_start_pk" PRIMARY KEY("item_id","student_id","period_start"),
	CONSTRAINT "store_limit_uses_within" CHECK ("store_limit_uses"."used" >= 0 AND "store_limit_uses"."used" <= "store_limit_uses"."allowed")
);
--> statement-breakpoint
CREATE TABLE "store_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"item_id" uuid NOT NULL,
	"student_id" uuid,
	"price" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"limit_period_start" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	"purchase_entry_id" uuid,
	"refund_entry_id" uuid,
	CONSTRAINT "store_orders_status_known" CHECK ("store_orders"."status" IN ('pending', 'delivered', 'refused', 'cancelled')),
	CONSTRAINT "store_orders_price_positive" CHECK ("store_orders"."price" > 0),
	CONSTRAINT "store_orders_purchase_of_student" CHECK (("store_orders"."student_id" IS NULL) = ("store_orders"."purchase_entry_id" IS NULL)),
	CONSTRAINT "store_orders_refund_iff_undone" CHECK (("store_orders"."refund_entry_id" IS NOT NULL) = ("store_orders"."student_id" IS NOT NULL AND "store_orders"."status" IN ('refused', 'cancelled'))),
	CONSTRAINT "store_orders_reason_iff_refused" CHECK (("store_orders"."status" = 'refused') = ("store_orders"."reason" IS NOT NULL)),
	CONSTRAINT "store_orders_decided_iff_not_pending" CHECK (("store_orders"."status" = 'pending') = ("store_orders"."decided_at" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "store_item_turmas" ADD CONSTRAINT "store_item_turmas_item_id_store_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."store_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_item_turmas" ADD CONSTRAINT "store_item_turmas_turma_id_turmas_id_fk" FOREIGN KEY ("turma_id") REFERENCES "public"."turmas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_items" ADD CONSTRAINT "store_items_image_id_archive_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."archive_images"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_items" ADD CONSTRAINT "store_items_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_limit_uses" ADD CONSTRAINT "store_limit_uses_item_id_store_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."store_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_limit_uses" ADD CONSTRAINT "store_limit_uses_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_orders" ADD CONSTRAINT "store_orders_item_id_store_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."store_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_orders" ADD CONSTRAINT "store_orders_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_orders" ADD CONSTRAINT "store_orders_decided_by_admins_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_orders" ADD CONSTRAINT "store_orders_purchase_entry_id_ledger_entries_id_fk" FOREIGN KEY ("purchase_entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_orders" ADD CONSTRAINT "store_orders_refund_entry_id_ledger_entries_id_fk" FOREIGN KEY ("refund_entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "store_item_turmas_turma_idx" ON "store_item_turmas" USING btree ("turma_id");--> statement-breakpoint
CREATE INDEX "store_items_position_idx" ON "store_items" USING btree ("position","created_at");--> statement-breakpoint
CREATE INDEX "store_limit_uses_student_idx" ON "store_limit_uses" USING btree ("student_id");--> statement-breakpoint
CREATE UNIQUE INDEX "store_orders_purchase_entry_key" ON "store_orders" USING btree ("purchase_entry_id");--> statement-breakpoint
CREATE UNIQUE INDEX "store_orders_refund_entry_key" ON "store_orders" USING btree ("refund_entry_id");--> statement-breakpoint
CREATE INDEX "store_orders_student_idx" ON "store_orders" USING btree ("student_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "store_orders_item_idx" ON "store_orders" USING btree ("item_id","status");--> statement-breakpoint
CREATE INDEX "store_orders_created_idx" ON "store_orders" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "store_orders_pending_idx" ON "store_orders" USING btree ("created_at") WHERE "store_orders"."status" = 'pending';