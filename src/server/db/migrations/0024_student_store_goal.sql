CREATE TABLE "student_store_goals" (
	"student_id" uuid PRIMARY KEY NOT NULL,
	"item_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "student_store_goals" ADD CONSTRAINT "student_store_goals_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_store_goals" ADD CONSTRAINT "student_store_goals_item_id_store_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."store_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "student_store_goals_item_idx" ON "student_store_goals" USING btree ("item_id");