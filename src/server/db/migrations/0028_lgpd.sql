ALTER TABLE "school_settings" ADD COLUMN "privacy" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "image_consent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "erasure_number" integer;--> statement-breakpoint
CREATE INDEX "audit_log_student_idx" ON "audit_log" USING btree (("details"->>'studentUuid'),"at" DESC NULLS FIRST) WHERE "audit_log"."details" ? 'studentUuid';--> statement-breakpoint
CREATE UNIQUE INDEX "students_erasure_number_key" ON "students" USING btree ("erasure_number");--> statement-breakpoint
CREATE INDEX "students_photo_url_idx" ON "students" USING btree ("photo_url") WHERE "students"."photo_url" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_erased_numbered" CHECK (("students"."erased_at" IS NULL) = ("students"."erasure_number" IS NULL));