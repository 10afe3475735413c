CREATE TABLE "student_year_turmas" (
	"year_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"turma_id" uuid NOT NULL,
	CONSTRAINT "student_year_turmas_year_id_student_id_pk" PRIMARY KEY("year_id","student_id")
);
--> statement-breakpoint
ALTER TABLE "student_year_turmas" ADD CONSTRAINT "student_year_turmas_year_id_school_years_id_fk" FOREIGN KEY ("year_id") REFERENCES "public"."school_years"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_year_turmas" ADD CONSTRAINT "student_year_turmas_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_year_turmas" ADD CONSTRAINT "student_year_turmas_turma_id_turmas_id_fk" FOREIGN KEY ("turma_id") REFERENCES "public"."turmas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "student_year_turmas_turma_idx" ON "student_year_turmas" USING btree ("turma_id");