CREATE TABLE "hall_of_fame_honours" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"year_id" uuid NOT NULL,
	"category" text NOT NULL,
	"place" smallint NOT NULL,
	"student_id" uuid,
	"turma_name" text NOT NULL,
	"amount" integer NOT NULL,
	CONSTRAINT "hall_of_fame_honours_category_known" CHECK ("hall_of_fame_honours"."category" IN ('meritus', 'estelecas', 'tags', 'turma', 'goals')),
	CONSTRAINT "hall_of_fame_honours_place_positive" CHECK ("hall_of_fame_honours"."place" >= 1),
	CONSTRAINT "hall_of_fame_honours_amount_positive" CHECK ("hall_of_fame_honours"."amount" > 0),
	CONSTRAINT "hall_of_fame_honours_student_iff_not_goals" CHECK (("hall_of_fame_honours"."category" = 'goals') = ("hall_of_fame_honours"."student_id" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "hall_of_fame_honours" ADD CONSTRAINT "hall_of_fame_honours_year_id_school_years_id_fk" FOREIGN KEY ("year_id") REFERENCES "public"."school_years"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hall_of_fame_honours" ADD CONSTRAINT "hall_of_fame_honours_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hall_of_fame_honours_year_idx" ON "hall_of_fame_honours" USING btree ("year_id","category","place");--> statement-breakpoint
CREATE INDEX "hall_of_fame_honours_student_idx" ON "hall_of_fame_honours" USING btree ("student_id") WHERE "hall_of_fame_honours"."student_id" IS NOT NULL;