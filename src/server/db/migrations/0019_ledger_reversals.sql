-- A reversal (estorno, decision 025) takes back the row it references: the same amount, its
-- parties swapped, so its own parties say which way it moves a balance. ledger_type_sign()
-- answers 2 for it ("the opposite of the row it reverses"); the sums count it through
-- ledger_counted below, never by this sign.
CREATE OR REPLACE FUNCTION ledger_type_sign(p_type text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE p_type
    WHEN 'transfer' THEN 0
    WHEN 'admin_add' THEN 1
    WHEN 'admin_remove' THEN -1
    WHEN 'reward' THEN 1
    WHEN 'penalty' THEN -1
    WHEN 'reversal' THEN 2
  END
$$;--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_parties_match_type";--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "reverses_entry_id" uuid;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "reversal_reason" text;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_reverses_entry_id_ledger_entries_id_fk" FOREIGN KEY ("reverses_entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_reverses_entry_key" ON "ledger_entries" USING btree ("reverses_entry_id");--> statement-breakpoint
CREATE INDEX "ledger_reversals_created_idx" ON "ledger_entries" USING btree ("created_at") WHERE "ledger_entries"."reverses_entry_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_reversal_reference" CHECK (("ledger_entries"."type" = 'reversal') = ("ledger_entries"."reverses_entry_id" IS NOT NULL) AND ("ledger_entries"."type" = 'reversal') = ("ledger_entries"."reversal_reason" IS NOT NULL));--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_parties_match_type" CHECK (CASE ledger_type_sign("ledger_entries"."type")
        WHEN 0 THEN "ledger_entries"."from_student_id" IS NOT NULL AND "ledger_entries"."to_student_id" IS NOT NULL AND "ledger_entries"."from_student_id" <> "ledger_entries"."to_student_id"
        WHEN 1 THEN "ledger_entries"."from_student_id" IS NULL AND "ledger_entries"."to_student_id" IS NOT NULL
        WHEN -1 THEN "ledger_entries"."from_student_id" IS NOT NULL AND "ledger_entries"."to_student_id" IS NULL
        WHEN 2 THEN ("ledger_entries"."from_student_id" IS NOT NULL OR "ledger_entries"."to_student_id" IS NOT NULL) AND "ledger_entries"."from_student_id" IS DISTINCT FROM "ledger_entries"."to_student_id"
        ELSE false END);--> statement-breakpoint
-- The ledger's rows as the reports' sums count them (ledger_rollup() in ledger.sql does the
-- same for the rows it queues): a row as itself, with sign 1; a reversal as the row it
-- reverses taken back (sign -1: its type, parties and reason), on the reversal's own date. So
-- a reversed award leaves the awards of the day it is reversed, and balances summed this way
-- still equal the rows' sums by their parties.
CREATE VIEW "ledger_counted" AS
  SELECT e.id, e.created_at, e.currency, e.amount,
         CASE WHEN o.id IS NULL THEN 1 ELSE -1 END AS sign,
         coalesce(o.type, e.type) AS type,
         CASE WHEN o.id IS NULL THEN e.from_student_id ELSE o.from_student_id END AS from_student_id,
         CASE WHEN o.id IS NULL THEN e.to_student_id ELSE o.to_student_id END AS to_student_id,
         coalesce(o.description, e.description) AS description,
         e.actor_admin_id
    FROM "ledger_entries" e
    LEFT JOIN "ledger_entries" o ON o.id = e.reverses_entry_id;