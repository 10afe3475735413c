-- Turma goals (issue 35, decision 026): a goal's progress, which references its item's goal (the unique key below comes
-- first: the foreign key needs it), and each contribution with its ledger row and its refund, at most one.
ALTER TABLE "store_items" ADD CONSTRAINT "store_items_id_goal_key" UNIQUE("id","goal");--> statement-breakpoint
CREATE TABLE "store_goal_contributions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"item_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"entry_id" uuid NOT NULL,
	"refund_entry_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_goal_contributions_amount_positive" CHECK ("store_goal_contributions"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "store_goal_progress" (
	"item_id" uuid PRIMARY KEY NOT NULL,
	"goal" integer NOT NULL,
	"raised" integer DEFAULT 0 NOT NULL,
	"reached_at" timestamp with time zone,
	"order_id" uuid,
	"refunded_at" timestamp with time zone,
	"refund_reason" text,
	CONSTRAINT "store_goal_raised_within" CHECK ("store_goal_progress"."raised" >= 0 AND "store_goal_progress"."raised" <= "store_goal_progress"."goal"),
	CONSTRAINT "store_goal_order_iff_reached" CHECK (("store_goal_progress"."reached_at" IS NULL) = ("store_goal_progress"."order_id" IS NULL)),
	CONSTRAINT "store_goal_refund_reason" CHECK (("store_goal_progress"."refunded_at" IS NULL) = ("store_goal_progress"."refund_reason" IS NULL)
        AND ("store_goal_progress"."refund_reason" IS NULL OR "store_goal_progress"."refund_reason" IN ('deadline', 'order_refused'))
        AND ("store_goal_progress"."refund_reason" IS NULL OR ("store_goal_progress"."refund_reason" = 'order_refused') = ("store_goal_progress"."reached_at" IS NOT NULL))),
	CONSTRAINT "store_goal_state" CHECK (CASE WHEN "store_goal_progress"."refunded_at" IS NOT NULL THEN "store_goal_progress"."raised" = 0
               WHEN "store_goal_progress"."reached_at" IS NOT NULL THEN "store_goal_progress"."raised" = "store_goal_progress"."goal"
               ELSE "store_goal_progress"."raised" < "store_goal_progress"."goal" END)
);
--> statement-breakpoint
ALTER TABLE "store_goal_contributions" ADD CONSTRAINT "store_goal_contributions_item_id_store_goal_progress_item_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."store_goal_progress"("item_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_goal_contributions" ADD CONSTRAINT "store_goal_contributions_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_goal_contributions" ADD CONSTRAINT "store_goal_contributions_entry_id_ledger_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_goal_contributions" ADD CONSTRAINT "store_goal_contributions_refund_entry_id_ledger_entries_id_fk" FOREIGN KEY ("refund_entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_goal_progress" ADD CONSTRAINT "store_goal_progress_order_id_store_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."store_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_goal_progress" ADD CONSTRAINT "store_goal_progress_item_id_goal_store_items_id_goal_fk" FOREIGN KEY ("item_id","goal") REFERENCES "public"."store_items"("id","goal") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE UNIQUE INDEX "store_goal_contributions_entry_key" ON "store_goal_contributions" USING btree ("entry_id");--> statement-breakpoint
CREATE UNIQUE INDEX "store_goal_contributions_refund_key" ON "store_goal_contributions" USING btree ("refund_entry_id");--> statement-breakpoint
CREATE INDEX "store_goal_contributions_item_student_idx" ON "store_goal_contributions" USING btree ("item_id","student_id");--> statement-breakpoint
CREATE INDEX "store_goal_contributions_student_idx" ON "store_goal_contributions" USING btree ("student_id");--> statement-breakpoint
CREATE UNIQUE INDEX "store_goal_progress_order_key" ON "store_goal_progress" USING btree ("order_id");
