-- A refusal found by ledger.sql's functions is now recorded by ledger.service.ts, so
-- ledger_refuse() no longer takes the records to write: its former overload goes, since the
-- living SQL only replaces functions of the same arguments.
DROP FUNCTION IF EXISTS ledger_refuse(jsonb, text, jsonb);
