-- The reports' sums keep the Loja's spending apart (decision 026): purchases and contributions, less refunds, per student and
-- currency and per turma's day, never among awards or removals. No store row was written before this migration.
ALTER TABLE "ledger_student_days" ADD COLUMN "m_spent" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_student_days" ADD COLUMN "e_spent" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_turma_days" ADD COLUMN "m_spent" bigint DEFAULT 0 NOT NULL;