-- A turma's day is split in slots (decision 011), so that simultaneous transfers of one turma no
-- longer queue on one row's lock; the day's sums so far stay in slot 0.
ALTER TABLE "ledger_grade_days" ADD COLUMN "slot" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_grade_days" DROP CONSTRAINT "ledger_grade_days_grade_day_pk";--> statement-breakpoint
ALTER TABLE "ledger_grade_days" ADD CONSTRAINT "ledger_grade_days_grade_day_slot_pk" PRIMARY KEY("grade","day","slot");
