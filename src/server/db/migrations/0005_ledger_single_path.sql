-- Decision 007: every ledger write runs through ledger.sql's functions, re-applied at each
-- start-up. The 13-parameter ledger_transfer() of migration 0002 gives way to
-- ledger_transfer(jsonb), and the status column, which nothing wrote and which contradicted
-- invariant 6 (a refused operation leaves no ledger row), goes.
DROP FUNCTION IF EXISTS ledger_transfer(text, uuid, uuid, integer, text, text, text, text, text, text, integer, timestamptz, jsonb);--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP COLUMN "status";
