DROP INDEX "ledger_currency_type_created_idx";--> statement-breakpoint
DROP INDEX "audit_log_at_idx";--> statement-breakpoint
DROP INDEX "audit_log_action_at_idx";--> statement-breakpoint
DROP INDEX "ledger_from_idx";--> statement-breakpoint
DROP INDEX "ledger_to_idx";--> statement-breakpoint
DROP INDEX "ledger_created_idx";--> statement-breakpoint
DROP INDEX "students_meritus_idx";--> statement-breakpoint
CREATE INDEX "ledger_currency_created_idx" ON "ledger_entries" USING btree ("currency","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_action_at_idx" ON "audit_log" USING btree ("action","at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "ledger_from_idx" ON "ledger_entries" USING btree ("from_student_id","currency","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "ledger_to_idx" ON "ledger_entries" USING btree ("to_student_id","currency","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "ledger_created_idx" ON "ledger_entries" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "students_meritus_idx" ON "students" USING btree ("meritus" DESC NULLS FIRST) WHERE "students"."deleted_at" IS NULL;