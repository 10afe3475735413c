CREATE TABLE "diagnostic_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"run_id" uuid,
	"category" text NOT NULL,
	"status" text NOT NULL,
	"message" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "diagnostic_logs_category_known" CHECK ("diagnostic_logs"."category" IN ('CONNECTIVITY', 'ADMINISTRATORS', 'STUDENTS', 'TRANSACTIONS', 'AUTH', 'SYSTEM', 'FIX')),
	CONSTRAINT "diagnostic_logs_status_known" CHECK ("diagnostic_logs"."status" IN ('success', 'warning', 'error', 'info'))
);
--> statement-breakpoint
CREATE INDEX "diagnostic_logs_at_idx" ON "diagnostic_logs" USING btree ("at" DESC NULLS FIRST,"id" DESC NULLS FIRST);