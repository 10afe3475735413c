-- The Loja's ledger types (issue 35, decision 026), as src/shared/ledger-types.ts defines them: a
-- purchase and a turma goal's contribution lower the student's balance (-1), a refund of an
-- order or a contribution raises it back (1).
CREATE OR REPLACE FUNCTION ledger_type_sign(p_type text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE p_type
    WHEN 'transfer' THEN 0
    WHEN 'admin_add' THEN 1
    WHEN 'admin_remove' THEN -1
    WHEN 'reward' THEN 1
    WHEN 'penalty' THEN -1
    WHEN 'reversal' THEN 2
    WHEN 'purchase' THEN -1
    WHEN 'refund' THEN 1
    WHEN 'contribution' THEN -1
  END
$$;
