-- Which way each ledger type moves a balance, as src/shared/ledger-types.ts defines it
-- (ledger-direction.test.ts holds the two equal): 1 raises the recipient's, -1 lowers the
-- sender's, 0 moves an amount from the sender to the recipient; NULL for a text that is no
-- ledger type. Every SQL query and function that asks which way a row goes asks this one, and
-- the ledger's CHECK below refuses a type it does not know. A new type redefines it in its own
-- migration. A plain CASE, so that PostgreSQL inlines it into the queries that call it.
CREATE OR REPLACE FUNCTION ledger_type_sign(p_type text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE p_type
    WHEN 'transfer' THEN 0
    WHEN 'admin_add' THEN 1
    WHEN 'admin_remove' THEN -1
    WHEN 'reward' THEN 1
    WHEN 'penalty' THEN -1
  END
$$;--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_parties_match_type";--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_parties_match_type" CHECK (CASE ledger_type_sign("ledger_entries"."type")
        WHEN 0 THEN "ledger_entries"."from_student_id" IS NOT NULL AND "ledger_entries"."to_student_id" IS NOT NULL AND "ledger_entries"."from_student_id" <> "ledger_entries"."to_student_id"
        WHEN 1 THEN "ledger_entries"."from_student_id" IS NULL AND "ledger_entries"."to_student_id" IS NOT NULL
        WHEN -1 THEN "ledger_entries"."from_student_id" IS NOT NULL AND "ledger_entries"."to_student_id" IS NULL
        ELSE false END);