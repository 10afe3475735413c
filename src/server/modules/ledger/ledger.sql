-- The ledger's writes: every operation that moves Méritus or Estelecas runs through one of
-- these two functions (decision 007). This file is living SQL: the start-up re-applies it
-- (CREATE OR REPLACE) under the migrations' lock, and a test compares the deployed
-- definitions with it. Change a ledger rule here, never in a migration.
--
-- (A reversal, decision 025, is a third: ledger_reversal().)
-- ledger.service.ts validates the request with the shared schema, renders the pt-BR texts
-- (passed in as format() templates, since names are read here under the lock) and the
-- audit records; these functions do the atomic part, in one round trip:
-- - a repeated Idempotency-Key replays its stored response (a different request under the
--   same key is a conflict);
-- - the students are locked in id order, so crossing operations cannot deadlock;
-- - balances are checked under the lock, then moved together with the ledger rows;
-- - the response is stored under the key. A concurrent repeat that got past the first check
--   fails on the key's primary key and rolls back whole; the caller asks again and replays.
-- A refusal writes nothing (a retry runs anew): the service records it in the audit log.
-- Both take one jsonb argument and answer jsonb:
--   {outcome: 'completed'|'replayed', status, body} | {outcome: 'refused', reason, details?} | {outcome: 'conflict'}

-- The stored answer to a repeated Idempotency-Key, or NULL for a key not seen yet.
CREATE OR REPLACE FUNCTION ledger_replay(p_idempotency jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  existing idempotency_keys%ROWTYPE;
BEGIN
  IF p_idempotency IS NULL OR jsonb_typeof(p_idempotency) = 'null' THEN
    RETURN NULL;
  END IF;
  SELECT * INTO existing FROM idempotency_keys
   WHERE actor_key = p_idempotency->>'actorKey' AND key = p_idempotency->>'key';
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF existing.request_hash <> p_idempotency->>'requestHash' THEN
    RETURN jsonb_build_object('outcome', 'conflict');
  END IF;
  RETURN jsonb_build_object('outcome', 'replayed', 'status', existing.status_code, 'body', existing.response);
END
$$;

-- Stores the response under the key (when there is one) and answers 'completed'.
CREATE OR REPLACE FUNCTION ledger_complete(p_idempotency jsonb, p_status integer, p_body jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
BEGIN
  IF p_idempotency IS NOT NULL AND jsonb_typeof(p_idempotency) <> 'null' THEN
    INSERT INTO idempotency_keys (actor_key, key, request_hash, status_code, response)
      VALUES (p_idempotency->>'actorKey', p_idempotency->>'key', p_idempotency->>'requestHash', p_status, p_body::json);
  END IF;
  RETURN jsonb_build_object('outcome', 'completed', 'status', p_status, 'body', p_body);
END
$$;

-- The answer of a refusal found under the lock; ledger.service.ts records it (refused-attempts.ts).
CREATE OR REPLACE FUNCTION ledger_refuse(p_reason text, p_details jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object('outcome', 'refused', 'reason', p_reason, 'details', p_details)
$$;

-- The ledger row's view in a response.
CREATE OR REPLACE FUNCTION ledger_entry_view(p_entry ledger_entries) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', p_entry.id,
    'currency', p_entry.currency,
    'type', p_entry.type,
    'amount', p_entry.amount,
    'description', p_entry.description,
    'createdAt', to_char(p_entry.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  )
$$;

-- Why a transfer would be refused, given its two students' rows (a missing student's row is
-- all NULL), or NULL: sender_missing, recipient_missing, too_soon {waitSeconds} and daily_cap
-- {remaining} (the school's guardrails, p.guard), insufficient.
CREATE OR REPLACE FUNCTION ledger_transfer_refusal(p jsonb, p_sender students, p_recipient students) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_currency text := p->>'currency';
  v_amount integer := (p->>'amount')::integer;
  v_interval integer := (p->'guard'->>'minIntervalSeconds')::integer;
  v_cap integer := (p->'guard'->>'dailyCap')::integer;
  v_last timestamptz;
  v_sent_today bigint;
BEGIN
  IF p_sender.id IS NULL OR p_sender.deleted_at IS NOT NULL THEN
    RETURN ledger_refuse('sender_missing', NULL);
  ELSIF p_recipient.id IS NULL OR p_recipient.deleted_at IS NOT NULL THEN
    RETURN ledger_refuse('recipient_missing', NULL);
  END IF;
  IF v_interval IS NOT NULL THEN
    SELECT max(created_at) INTO v_last FROM ledger_entries
     WHERE from_student_id = p_sender.id AND currency IN ('meritus', 'estelecas') AND type = 'transfer';
    IF v_last > now() - make_interval(secs => v_interval) THEN
      RETURN ledger_refuse('too_soon', jsonb_build_object(
        'waitSeconds', ceil(extract(epoch FROM v_last + make_interval(secs => v_interval) - now()))));
    END IF;
  END IF;
  IF v_cap IS NOT NULL THEN
    SELECT coalesce(sum(amount), 0) INTO v_sent_today FROM ledger_entries
     WHERE from_student_id = p_sender.id AND currency = v_currency AND type = 'transfer'
       AND created_at >= (p->'guard'->>'dayStart')::timestamptz;
    IF v_sent_today + v_amount > v_cap THEN
      RETURN ledger_refuse('daily_cap', jsonb_build_object('remaining', greatest(v_cap - v_sent_today, 0)));
    END IF;
  END IF;
  IF (CASE WHEN v_currency = 'meritus' THEN p_sender.meritus ELSE p_sender.estelecas END) < v_amount THEN
    RETURN ledger_refuse('insufficient', NULL);
  END IF;
  RETURN NULL;
END
$$;

-- A student's transfer to another student.
-- p: {currency, senderId, recipientId, amount, description|null, descriptionTemplate (%1$s sender,
--     %2$s recipient), messageTemplate (%1$s recipient), idempotency|null, status, createdAt|null,
--     guard|null: {dailyCap|null, dayStart, minIntervalSeconds|null} (the school's guardrails)}
-- Refusals: as ledger_transfer_refusal() finds them, first on the students' committed rows,
-- then under their locks. A refusal found on the committed rows held when they were read, and
-- answers at once: nothing is locked or written, so there is no commit to wait for. Only then
-- are the students locked and everything checked again, so two transfers at once cannot both
-- pass the balance or the guardrails.
CREATE OR REPLACE FUNCTION ledger_transfer(p jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_replay jsonb := ledger_replay(p->'idempotency');
  v_currency text := p->>'currency';
  v_amount integer := (p->>'amount')::integer;
  v_sender_id uuid := (p->>'senderId')::uuid;
  v_recipient_id uuid := (p->>'recipientId')::uuid;
  v_debit_meritus integer := CASE WHEN v_currency = 'meritus' THEN v_amount ELSE 0 END;
  v_debit_estelecas integer := CASE WHEN v_currency = 'estelecas' THEN v_amount ELSE 0 END;
  v_sender students%ROWTYPE;
  v_recipient students%ROWTYPE;
  v_entry ledger_entries%ROWTYPE;
  v_refusal jsonb;
BEGIN
  IF v_replay IS NOT NULL THEN
    RETURN v_replay;
  END IF;
  IF v_currency NOT IN ('meritus', 'estelecas') OR v_amount IS NULL OR v_amount < 1 OR v_sender_id = v_recipient_id THEN
    RAISE EXCEPTION 'ledger_transfer: invalid request %', p USING ERRCODE = '22023';
  END IF;

  SELECT * INTO v_sender FROM students WHERE id = v_sender_id;
  SELECT * INTO v_recipient FROM students WHERE id = v_recipient_id;
  v_refusal := ledger_transfer_refusal(p, v_sender, v_recipient);
  IF v_refusal IS NOT NULL THEN
    RETURN v_refusal;
  END IF;

  -- One by one, each by its primary key: a query for both ("id IN (…) AND deleted_at IS NULL")
  -- was planned as a scan of every student (the matrículas' partial index, or the table), so a
  -- transfer cost as much as the school is large. A removed student's row is locked too, and
  -- counts as missing. FOR NO KEY UPDATE is the lock the balances' UPDATE takes anyway: writers
  -- still take turns on a student, while the foreign-key checks of rows that name the student
  -- (another ledger row, the fold's new day of the reports' sums) go on beside it.
  IF v_sender_id < v_recipient_id THEN
    SELECT * INTO v_sender FROM students WHERE id = v_sender_id FOR NO KEY UPDATE;
    SELECT * INTO v_recipient FROM students WHERE id = v_recipient_id FOR NO KEY UPDATE;
  ELSE
    SELECT * INTO v_recipient FROM students WHERE id = v_recipient_id FOR NO KEY UPDATE;
    SELECT * INTO v_sender FROM students WHERE id = v_sender_id FOR NO KEY UPDATE;
  END IF;
  v_refusal := ledger_transfer_refusal(p, v_sender, v_recipient);
  IF v_refusal IS NOT NULL THEN
    RETURN v_refusal;
  END IF;

  UPDATE students
     SET meritus = meritus - v_debit_meritus, estelecas = estelecas - v_debit_estelecas, updated_at = now()
   WHERE id = v_sender_id
  RETURNING * INTO v_sender;
  UPDATE students
     SET meritus = meritus + v_debit_meritus, estelecas = estelecas + v_debit_estelecas, updated_at = now()
   WHERE id = v_recipient_id;

  INSERT INTO ledger_entries (currency, type, amount, description, from_student_id, to_student_id, actor_kind, actor_name, created_at)
    VALUES (v_currency, 'transfer', v_amount,
            coalesce(p->>'description', format(p->>'descriptionTemplate', v_sender.name, v_recipient.name)),
            v_sender_id, v_recipient_id, 'student', v_sender.name, coalesce((p->>'createdAt')::timestamptz, now()))
  RETURNING * INTO v_entry;

  RETURN ledger_complete(p->'idempotency', (p->>'status')::integer, jsonb_build_object(
    'entry', ledger_entry_view(v_entry),
    'message', format(p->>'messageTemplate', v_recipient.name),
    'balances', jsonb_build_object('meritus', v_sender.meritus, 'totalEarned', v_sender.total_earned, 'estelecas', v_sender.estelecas)
  ));
END
$$;

-- What a member of the staff awarded in one currency since an instant: the rows of the award types
-- (p_types, from src/shared) they wrote. It is a teacher's spending of their weekly budget, for the
-- budget's check under the lock and for GET /api/me/budget alike. An award that has been reversed does
-- not count: the budget is given back (decision 025).
CREATE OR REPLACE FUNCTION ledger_awarded_since(p_admin_id uuid, p_currency text, p_since timestamptz, p_types text[]) RETURNS bigint
LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum(e.amount), 0)::bigint FROM ledger_entries e
   WHERE e.actor_admin_id = p_admin_id AND e.currency = p_currency AND e.created_at >= p_since AND e.type = ANY(p_types)
     AND NOT EXISTS (SELECT 1 FROM ledger_entries r WHERE r.reverses_entry_id = e.id)
$$;

-- An administrator's award or deduction for one student, or for many at once (a whole turma:
-- every leg or none). A type that raises (ledger_type_sign(), migration 0015) also raises a
-- student's total earned in Méritus.
-- p: {currency, type, amount, description, studentUuids: [uuid], adminId, adminName, bulk (boolean),
--     messageTemplate (%1$s the student's name; the whole text for bulk), audit: {action, ip, details},
--     idempotency|null, status, createdAt|null,
--     budget|null: {weekStart, types: [award types]} (a teacher's award: held to their weekly budget)}
-- Refusals: budget_exceeded {limit, spent, remaining}; student_missing; insufficient, with
-- details.short = [{id, name, balance}] of every student whose balance is below the amount of a deduction.
CREATE OR REPLACE FUNCTION ledger_admin_operation(p jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_replay jsonb := ledger_replay(p->'idempotency');
  v_currency text := p->>'currency';
  v_type text := p->>'type';
  v_amount integer := (p->>'amount')::integer;
  v_ids uuid[] := ARRAY(SELECT DISTINCT value::uuid FROM jsonb_array_elements_text(p->'studentUuids'));
  v_credit boolean := ledger_type_sign(p->>'type') = 1;
  v_delta integer;
  v_batch_id uuid := CASE WHEN (p->>'bulk')::boolean THEN gen_random_uuid() END;
  v_created timestamptz := coalesce((p->>'createdAt')::timestamptz, now());
  v_found integer;
  v_short jsonb;
  v_limit integer;
  v_spent bigint;
  v_student students%ROWTYPE;
  v_entry ledger_entries%ROWTYPE;
  v_body jsonb;
BEGIN
  IF v_replay IS NOT NULL THEN
    RETURN v_replay;
  END IF;
  IF v_currency NOT IN ('meritus', 'estelecas') OR coalesce(ledger_type_sign(v_type), 0) NOT IN (1, -1)
     OR v_amount IS NULL OR v_amount < 1 OR cardinality(v_ids) = 0 OR (v_batch_id IS NULL AND cardinality(v_ids) <> 1) THEN
    RAISE EXCEPTION 'ledger_admin_operation: invalid request %', p USING ERRCODE = '22023';
  END IF;
  v_delta := CASE WHEN v_credit THEN v_amount ELSE -v_amount END;

  -- A teacher's weekly budget: their row is locked first (before the students, always in this order),
  -- so their awards at once are summed one after another and never pass the budget together; the
  -- limit is read under the lock, so a change of budget or role holds at once. A whole turma counts
  -- every student's leg.
  IF v_credit AND jsonb_typeof(p->'budget') = 'object' THEN
    SELECT CASE WHEN v_currency = 'meritus' THEN weekly_budget_meritus ELSE weekly_budget_estelecas END
      INTO v_limit FROM admins WHERE id = (p->>'adminId')::uuid AND role = 'teacher' FOR NO KEY UPDATE;
    IF v_limit IS NOT NULL THEN
      v_spent := ledger_awarded_since((p->>'adminId')::uuid, v_currency, (p->'budget'->>'weekStart')::timestamptz,
                                      ARRAY(SELECT jsonb_array_elements_text(p->'budget'->'types')));
      IF v_spent + v_amount::bigint * cardinality(v_ids) > v_limit THEN
        RETURN ledger_refuse('budget_exceeded',
          jsonb_build_object('limit', v_limit, 'spent', v_spent, 'remaining', greatest(v_limit - v_spent, 0)));
      END IF;
    END IF;
  END IF;

  -- Locked by id alone: with "deleted_at IS NULL" here the planner may scan the matrículas' partial index.
  SELECT count(*) FILTER (WHERE s.deleted_at IS NULL),
         jsonb_agg(jsonb_build_object('id', s.id, 'name', s.name, 'balance', s.balance) ORDER BY s.name COLLATE "und-x-icu")
           FILTER (WHERE s.deleted_at IS NULL AND NOT v_credit AND s.balance < v_amount)
    INTO v_found, v_short
    FROM (SELECT id, name, deleted_at, CASE WHEN v_currency = 'meritus' THEN meritus ELSE estelecas END AS balance
            FROM students WHERE id = ANY(v_ids) ORDER BY id FOR NO KEY UPDATE) s;
  IF v_found < cardinality(v_ids) THEN
    RETURN ledger_refuse('student_missing', NULL);
  ELSIF v_short IS NOT NULL THEN
    RETURN ledger_refuse('insufficient', jsonb_build_object('short', v_short));
  END IF;

  UPDATE students
     SET meritus = meritus + CASE WHEN v_currency = 'meritus' THEN v_delta ELSE 0 END,
         estelecas = estelecas + CASE WHEN v_currency = 'estelecas' THEN v_delta ELSE 0 END,
         total_earned = total_earned + CASE WHEN v_currency = 'meritus' AND v_credit THEN v_amount ELSE 0 END,
         updated_at = now()
   WHERE id = ANY(v_ids);

  IF v_batch_id IS NULL THEN
    INSERT INTO ledger_entries (currency, type, amount, description, from_student_id, to_student_id,
                                actor_kind, actor_admin_id, actor_name, created_at)
      VALUES (v_currency, v_type, v_amount, p->>'description',
              CASE WHEN v_credit THEN NULL ELSE v_ids[1] END, CASE WHEN v_credit THEN v_ids[1] END,
              'admin', (p->>'adminId')::uuid, p->>'adminName', v_created)
    RETURNING * INTO v_entry;
    SELECT * INTO v_student FROM students WHERE id = v_ids[1];
    v_body := jsonb_build_object(
      'entry', ledger_entry_view(v_entry),
      'message', format(p->>'messageTemplate', v_student.name),
      'balances', jsonb_build_object('meritus', v_student.meritus, 'totalEarned', v_student.total_earned, 'estelecas', v_student.estelecas)
    );
  ELSE
    INSERT INTO ledger_entries (currency, type, amount, description, from_student_id, to_student_id,
                                actor_kind, actor_admin_id, actor_name, batch_id, created_at)
      SELECT v_currency, v_type, v_amount, p->>'description',
             CASE WHEN v_credit THEN NULL ELSE target END, CASE WHEN v_credit THEN target END,
             'admin', (p->>'adminId')::uuid, p->>'adminName', v_batch_id, v_created
        FROM unnest(v_ids) AS target;
    v_body := jsonb_build_object('count', cardinality(v_ids), 'batchId', v_batch_id, 'message', p->>'messageTemplate');
  END IF;

  INSERT INTO audit_log (actor_kind, actor_id, actor_label, action, ip, details)
    VALUES ('admin', (p->>'adminId')::uuid, p->>'adminName', p->'audit'->>'action', p->'audit'->>'ip',
            coalesce(p->'audit'->'details', '{}') || CASE WHEN v_batch_id IS NULL
              THEN jsonb_build_object('entryId', v_entry.id) ELSE jsonb_build_object('batchId', v_batch_id) END);
  RETURN ledger_complete(p->'idempotency', (p->>'status')::integer, v_body);
END
$$;

-- A reversal (estorno, decision 025): takes back a row, with the same amount and its parties
-- swapped, naming it in reverses_entry_id (unique: a row is reversed once). Who may reverse what
-- (the author within 24 hours, the coordination anything) is ledger.service.ts's rule, read on
-- the row, which never changes; here, under the locks of the row's students (in id order, so
-- two reversals of one row take turns and the second finds the first), the rest is checked.
-- A reversed award also leaves the student's total earned.
-- p: {entryId, reason, adminId, adminName, descriptionTemplate (%1$s the row's description),
--     message, audit: {action, ip, details}, idempotency|null, status, createdAt|null}
-- Refusals: entry_missing; already_reversed; student_missing (a student of the row was removed);
-- insufficient, with details.short = [{id, name, balance}]: the row's recipient holds less than its amount.
CREATE OR REPLACE FUNCTION ledger_reversal(p jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_replay jsonb := ledger_replay(p->'idempotency');
  v_original ledger_entries%ROWTYPE;
  v_ids uuid[];
  v_found integer;
  v_giver students%ROWTYPE;
  v_balance integer;
  v_earned integer;
  v_entry ledger_entries%ROWTYPE;
BEGIN
  IF v_replay IS NOT NULL THEN
    RETURN v_replay;
  END IF;
  SELECT * INTO v_original FROM ledger_entries WHERE id = (p->>'entryId')::uuid;
  IF NOT FOUND THEN
    RETURN ledger_refuse('entry_missing', NULL);
  ELSIF v_original.type = 'reversal' OR coalesce(btrim(p->>'reason'), '') = '' THEN
    RAISE EXCEPTION 'ledger_reversal: invalid request %', p USING ERRCODE = '22023';
  END IF;
  v_ids := ARRAY(SELECT id FROM unnest(ARRAY[v_original.from_student_id, v_original.to_student_id]) AS id WHERE id IS NOT NULL);

  SELECT count(*) FILTER (WHERE deleted_at IS NULL) INTO v_found
    FROM (SELECT id, deleted_at FROM students WHERE id = ANY(v_ids) ORDER BY id FOR NO KEY UPDATE) s;
  IF EXISTS (SELECT 1 FROM ledger_entries WHERE reverses_entry_id = v_original.id) THEN
    RETURN ledger_refuse('already_reversed', NULL);
  ELSIF v_found < cardinality(v_ids) THEN
    RETURN ledger_refuse('student_missing', NULL);
  END IF;

  -- The row's recipient gives the amount back: their balance must hold it.
  IF v_original.to_student_id IS NOT NULL THEN
    SELECT * INTO v_giver FROM students WHERE id = v_original.to_student_id;
    v_balance := CASE WHEN v_original.currency = 'meritus' THEN v_giver.meritus ELSE v_giver.estelecas END;
    IF v_balance < v_original.amount THEN
      RETURN ledger_refuse('insufficient', jsonb_build_object('short', jsonb_build_array(
        jsonb_build_object('id', v_giver.id, 'name', v_giver.name, 'balance', v_balance))));
    END IF;
  END IF;

  v_earned := CASE WHEN v_original.currency = 'meritus' AND v_original.from_student_id IS NULL THEN v_original.amount ELSE 0 END;
  UPDATE students
     SET meritus = meritus + CASE WHEN v_original.currency <> 'meritus' THEN 0
                                  WHEN id = v_original.to_student_id THEN -v_original.amount ELSE v_original.amount END,
         estelecas = estelecas + CASE WHEN v_original.currency <> 'estelecas' THEN 0
                                      WHEN id = v_original.to_student_id THEN -v_original.amount ELSE v_original.amount END,
         total_earned = total_earned - CASE WHEN id = v_original.to_student_id THEN v_earned ELSE 0 END,
         updated_at = now()
   WHERE id = ANY(v_ids);

  INSERT INTO ledger_entries (currency, type, amount, description, from_student_id, to_student_id, actor_kind, actor_admin_id,
                              actor_name, reverses_entry_id, reversal_reason, created_at)
    VALUES (v_original.currency, 'reversal', v_original.amount, format(p->>'descriptionTemplate', v_original.description),
            v_original.to_student_id, v_original.from_student_id, 'admin', (p->>'adminId')::uuid, p->>'adminName',
            v_original.id, btrim(p->>'reason'), coalesce((p->>'createdAt')::timestamptz, now()))
  RETURNING * INTO v_entry;

  INSERT INTO audit_log (actor_kind, actor_id, actor_label, action, ip, details)
    VALUES ('admin', (p->>'adminId')::uuid, p->>'adminName', p->'audit'->>'action', p->'audit'->>'ip',
            coalesce(p->'audit'->'details', '{}') || jsonb_build_object('entryId', v_entry.id, 'reversedEntryId', v_original.id));
  RETURN ledger_complete(p->'idempotency', (p->>'status')::integer, jsonb_build_object(
    'entry', ledger_entry_view(v_entry),
    'reversedEntryId', v_original.id,
    'message', p->>'message'
  ));
END
$$;

-- The slot of a turma's day that a student's rows are summed in: transfers of one turma at the
-- same moment (a break) would otherwise all queue on one row's lock until their commit. Eight
-- slots keep a year's timeline a few tens of thousands of rows.
CREATE OR REPLACE FUNCTION ledger_student_slot(p_student_id uuid) RETURNS smallint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (get_byte(uuid_send(p_student_id), 15) % 8)::smallint
$$;

-- What a row of the type adds to the Loja's spending (decision 026): 1 for what a student spends
-- (a purchase, a contribution), -1 for what comes back (a refund), 0 for every other type. These
-- rows lower or raise a balance, but are never awards nor removals: the sums and the reports keep
-- them apart. STORE_LEDGER_TYPES of src/shared/ledger-types.ts, held equal by ledger-direction.test.ts.
CREATE OR REPLACE FUNCTION ledger_type_spending(p_type text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE p_type WHEN 'purchase' THEN 1 WHEN 'contribution' THEN 1 WHEN 'refund' THEN -1 ELSE 0 END
$$;

-- Whether a row of the type is an award or a removal of the staff's: it raises or lowers a
-- balance (ledger_type_sign(), migration 0015), is no spending of the Loja's and no year's
-- closing (decision 031: it brings a balance to zero without changing the closed year's figures).
CREATE OR REPLACE FUNCTION ledger_type_is_award(p_type text, p_sign integer) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ledger_type_sign(p_type) = p_sign AND ledger_type_spending(p_type) = 0 AND p_type <> 'year_closing'
$$;

-- What one queued row adds to its students' sums (ledger_student_days' columns), on the row's
-- UTC day: a side for the student who received (awarded or transferred in) and one for the
-- student who gave (removed or transferred out), each when the row has one; a deleted row's
-- sign is -1. Awards and removals are the staff's rows that raise or lower a balance, transfers
-- the ones that move it (ledger_type_sign(), migration 0015); the Loja's rows count only as
-- spent (m_spent, e_spent: a purchase adds, its refund takes back).
CREATE OR REPLACE FUNCTION ledger_row_sides(p_row ledger_sums_pending) RETURNS SETOF ledger_student_days
LANGUAGE sql IMMUTABLE AS $$
  SELECT p_row.to_student_id, (p_row.created_at AT TIME ZONE 'UTC')::date,
         p_row.sign * CASE WHEN p_row.currency = 'meritus' AND ledger_type_is_award(p_row.type, 1) THEN p_row.amount ELSE 0 END, 0,
         p_row.sign * CASE WHEN p_row.currency = 'meritus' AND ledger_type_sign(p_row.type) = 0 THEN p_row.amount ELSE 0 END, 0,
         p_row.sign * CASE WHEN p_row.currency = 'estelecas' AND ledger_type_is_award(p_row.type, 1) THEN p_row.amount ELSE 0 END, 0,
         p_row.sign * CASE WHEN p_row.currency = 'estelecas' AND ledger_type_sign(p_row.type) = 0 THEN p_row.amount ELSE 0 END, 0,
         0, p_row.sign,
         p_row.sign * ledger_type_spending(p_row.type) * CASE WHEN p_row.currency = 'meritus' THEN p_row.amount ELSE 0 END,
         p_row.sign * ledger_type_spending(p_row.type) * CASE WHEN p_row.currency = 'estelecas' THEN p_row.amount ELSE 0 END
   WHERE p_row.to_student_id IS NOT NULL
  UNION ALL
  SELECT p_row.from_student_id, (p_row.created_at AT TIME ZONE 'UTC')::date,
         0, p_row.sign * CASE WHEN p_row.currency = 'meritus' AND ledger_type_is_award(p_row.type, -1) THEN p_row.amount ELSE 0 END,
         0, p_row.sign * CASE WHEN p_row.currency = 'meritus' AND ledger_type_sign(p_row.type) = 0 THEN p_row.amount ELSE 0 END,
         0, p_row.sign * CASE WHEN p_row.currency = 'estelecas' AND ledger_type_is_award(p_row.type, -1) THEN p_row.amount ELSE 0 END,
         0, p_row.sign * CASE WHEN p_row.currency = 'estelecas' AND ledger_type_sign(p_row.type) = 0 THEN p_row.amount ELSE 0 END,
         p_row.sign * CASE WHEN ledger_type_sign(p_row.type) = 0 THEN 1 ELSE 0 END, p_row.sign,
         p_row.sign * ledger_type_spending(p_row.type) * CASE WHEN p_row.currency = 'meritus' THEN p_row.amount ELSE 0 END,
         p_row.sign * ledger_type_spending(p_row.type) * CASE WHEN p_row.currency = 'estelecas' THEN p_row.amount ELSE 0 END
   WHERE p_row.from_student_id IS NOT NULL
$$;

-- The reports' sums (decision 011) follow every ledger write, whatever writes it: these
-- functions, a migration's or a test's rows, a correction's DELETE. A reversal is queued as the
-- row it reverses taken back (sign -1, that row's type, parties and reason: as the view
-- ledger_counted reads it, migration 0017), on the reversal's date. The write only queues its
-- rows (ledger_sums_pending), with the turma each counts in at that moment (its sender's, or
-- its recipient's when it has none); ledger_sums_fold() adds them to the sums later, many at
-- once. Adding them in the write's own transaction cost a transfer more than a third of its
-- time in PostgreSQL (bench:bank), most of it queued behind other transfers' locks on the
-- turma's day until their commits.
CREATE OR REPLACE FUNCTION ledger_rollup() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_sums_pending (sign, turma_id, currency, type, amount, description, from_student_id, to_student_id, created_at)
  SELECT CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END * counted.sign, s.turma_id, c.currency, counted.type, c.amount,
         CASE WHEN ledger_type_is_award(counted.type, 1) OR ledger_type_is_award(counted.type, -1) THEN btrim(counted.description) END,
         counted.from_student_id, counted.to_student_id, c.created_at
    FROM changed c
    LEFT JOIN ledger_entries o ON o.id = c.reverses_entry_id
   CROSS JOIN LATERAL (SELECT CASE WHEN o.id IS NULL THEN 1 ELSE -1 END AS sign, coalesce(o.type, c.type) AS type,
                              coalesce(o.description, c.description) AS description,
                              CASE WHEN o.id IS NULL THEN c.from_student_id ELSE o.from_student_id END AS from_student_id,
                              CASE WHEN o.id IS NULL THEN c.to_student_id ELSE o.to_student_id END AS to_student_id) AS counted
    JOIN students s ON s.id = coalesce(counted.from_student_id, counted.to_student_id);
  RETURN NULL;
END
$$;

-- Adds the queued rows to the sums and takes them off the queue, in batches of the oldest
-- first (a long history queued at once then stores each student's days in order, each once);
-- answers how many. One fold at a time (the advisory lock, which a change of turma takes
-- too): `p_wait` waits for a fold under way (a report about to read the sums), otherwise the
-- call leaves at once (the server's periodic fold). Rows queued by transactions not yet
-- committed are not seen, and wait for the next fold.
-- The lock's key is ADVISORY_LOCKS.ledgerSums of src/server/db/advisory-locks.ts (a test holds them equal).
-- ledger_student_days holds per student the sums from the beginning through each UTC day
-- with rows; ledger_turma_days the Méritus of each day, in the queued turma, in the student's
-- slot; ledger_reason_sums the awards and penalties of each day and month by turma, kind and
-- reason. Adding commutes, so the order rows are folded in does not change the sums.
CREATE OR REPLACE FUNCTION ledger_sums_fold(p_wait boolean) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_rows ledger_sums_pending[];
  v_folded integer := 0;
  v_change ledger_student_days%ROWTYPE;
  v_first_updated date;
BEGIN
  IF p_wait THEN
    PERFORM pg_advisory_xact_lock(727375);
  ELSIF NOT pg_try_advisory_xact_lock(727375) THEN
    RETURN 0;
  END IF;
  LOOP
    WITH taken AS (
      DELETE FROM ledger_sums_pending
       WHERE ctid = ANY (ARRAY(SELECT ctid FROM ledger_sums_pending ORDER BY created_at LIMIT 10000))
      RETURNING *
    )
    SELECT array_agg(taken) INTO v_rows FROM taken;
    EXIT WHEN v_rows IS NULL;
    v_folded := v_folded + cardinality(v_rows);

    -- Each student's changed day adds its change to that day and to every later stored day
    -- (the sums run from the beginning); a day not stored yet is the last stored day before it
    -- plus the change. Taken in day order, a day is stored before any later one is changed,
    -- so a long history written at once updates each day once.
    FOR v_change IN
      SELECT side.student_id, side.day, sum(side.m_awarded), sum(side.m_removed), sum(side.m_in), sum(side.m_out),
             sum(side.e_awarded), sum(side.e_removed), sum(side.e_in), sum(side.e_out), sum(side.sent_ops), sum(side.ops),
             sum(side.m_spent), sum(side.e_spent)
        FROM unnest(v_rows) c CROSS JOIN LATERAL ledger_row_sides(c) side
       GROUP BY side.student_id, side.day
       ORDER BY side.student_id, side.day
    LOOP
      WITH updated AS (
        UPDATE ledger_student_days d
           SET m_awarded = d.m_awarded + v_change.m_awarded, m_removed = d.m_removed + v_change.m_removed,
               m_in = d.m_in + v_change.m_in, m_out = d.m_out + v_change.m_out, e_awarded = d.e_awarded + v_change.e_awarded,
               e_removed = d.e_removed + v_change.e_removed, e_in = d.e_in + v_change.e_in, e_out = d.e_out + v_change.e_out,
               sent_ops = d.sent_ops + v_change.sent_ops, ops = d.ops + v_change.ops,
               m_spent = d.m_spent + v_change.m_spent, e_spent = d.e_spent + v_change.e_spent
         WHERE d.student_id = v_change.student_id AND d.day >= v_change.day
        RETURNING d.day
      )
      SELECT min(day) INTO v_first_updated FROM updated;
      IF v_first_updated IS DISTINCT FROM v_change.day THEN
        INSERT INTO ledger_student_days (student_id, day, m_awarded, m_removed, m_in, m_out, e_awarded, e_removed, e_in, e_out, sent_ops, ops,
                                         m_spent, e_spent)
        SELECT v_change.student_id, v_change.day, coalesce(p.m_awarded, 0) + v_change.m_awarded,
               coalesce(p.m_removed, 0) + v_change.m_removed, coalesce(p.m_in, 0) + v_change.m_in,
               coalesce(p.m_out, 0) + v_change.m_out, coalesce(p.e_awarded, 0) + v_change.e_awarded,
               coalesce(p.e_removed, 0) + v_change.e_removed, coalesce(p.e_in, 0) + v_change.e_in,
               coalesce(p.e_out, 0) + v_change.e_out, coalesce(p.sent_ops, 0) + v_change.sent_ops, coalesce(p.ops, 0) + v_change.ops,
               coalesce(p.m_spent, 0) + v_change.m_spent, coalesce(p.e_spent, 0) + v_change.e_spent
          FROM (SELECT 1) AS one
          LEFT JOIN LATERAL (SELECT * FROM ledger_student_days x WHERE x.student_id = v_change.student_id AND x.day < v_change.day
                              ORDER BY x.day DESC LIMIT 1) AS p ON TRUE;
      END IF;
    END LOOP;

    INSERT INTO ledger_turma_days AS g (turma_id, day, slot, m_awarded, m_removed, m_transferred, m_spent)
    SELECT c.turma_id, (c.created_at AT TIME ZONE 'UTC')::date, ledger_student_slot(coalesce(c.from_student_id, c.to_student_id)),
           coalesce(sum(c.sign * c.amount) FILTER (WHERE ledger_type_is_award(c.type, 1)), 0),
           coalesce(sum(c.sign * c.amount) FILTER (WHERE ledger_type_is_award(c.type, -1)), 0),
           coalesce(sum(c.sign * c.amount) FILTER (WHERE ledger_type_sign(c.type) = 0), 0),
           coalesce(sum(c.sign * ledger_type_spending(c.type) * c.amount), 0)
      FROM unnest(v_rows) c
     WHERE c.currency = 'meritus'
     GROUP BY 1, 2, 3
     ORDER BY 1, 2, 3
    ON CONFLICT (turma_id, day, slot) DO UPDATE
       SET m_awarded = g.m_awarded + excluded.m_awarded, m_removed = g.m_removed + excluded.m_removed,
           m_transferred = g.m_transferred + excluded.m_transferred, m_spent = g.m_spent + excluded.m_spent;

    INSERT INTO ledger_reason_sums AS r (span, start, turma_id, kind, description, ops, meritus, estelecas)
    SELECT spans.span, spans.start, c.turma_id, CASE WHEN ledger_type_sign(c.type) = 1 THEN 'award' ELSE 'penalty' END,
           c.description, sum(c.sign),
           coalesce(sum(c.sign * c.amount) FILTER (WHERE c.currency = 'meritus'), 0),
           coalesce(sum(c.sign * c.amount) FILTER (WHERE c.currency = 'estelecas'), 0)
      FROM unnest(v_rows) c
     CROSS JOIN LATERAL (VALUES ('d', (c.created_at AT TIME ZONE 'UTC')::date),
                                ('m', date_trunc('month', c.created_at AT TIME ZONE 'UTC')::date)) AS spans(span, start)
     WHERE ledger_type_is_award(c.type, 1) OR ledger_type_is_award(c.type, -1)
     GROUP BY 1, 2, 3, 4, 5
     ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (span, start, turma_id, kind, description) DO UPDATE
       SET ops = r.ops + excluded.ops, meritus = r.meritus + excluded.meritus, estelecas = r.estelecas + excluded.estelecas;
  END LOOP;
  RETURN v_folded;
END
$$;

-- A student who changes turma takes their rows along to the new turma's days and reasons (a
-- reversal counted as the row it takes back, as ledger_rollup() queues it).
CREATE OR REPLACE FUNCTION ledger_rollup_regrade() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- Rows still queued keep the turma they were written in: moving every row of the ledger now,
  -- and adding the queued ones to that turma later, comes to the same sums.
  PERFORM pg_advisory_xact_lock(727375);
  INSERT INTO ledger_turma_days AS g (turma_id, day, slot, m_awarded, m_removed, m_transferred, m_spent)
  SELECT moved.turma_id, days.day, ledger_student_slot(NEW.id),
         moved.sign * days.m_awarded, moved.sign * days.m_removed, moved.sign * days.m_transferred, moved.sign * days.m_spent
    FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day,
                 coalesce(sum(sign * amount) FILTER (WHERE ledger_type_is_award(type, 1)), 0) AS m_awarded,
                 coalesce(sum(sign * amount) FILTER (WHERE ledger_type_is_award(type, -1)), 0) AS m_removed,
                 coalesce(sum(sign * amount) FILTER (WHERE ledger_type_sign(type) = 0), 0) AS m_transferred,
                 coalesce(sum(sign * ledger_type_spending(type) * amount), 0) AS m_spent
            FROM ledger_counted
           WHERE id IN (SELECT id FROM ledger_entries WHERE from_student_id = NEW.id OR to_student_id = NEW.id)
             AND currency = 'meritus' AND (from_student_id = NEW.id OR (from_student_id IS NULL AND to_student_id = NEW.id))
           GROUP BY 1) AS days
   CROSS JOIN (VALUES (OLD.turma_id, -1), (NEW.turma_id, 1)) AS moved(turma_id, sign)
   ORDER BY 1, 2
  ON CONFLICT (turma_id, day, slot) DO UPDATE
     SET m_awarded = g.m_awarded + excluded.m_awarded, m_removed = g.m_removed + excluded.m_removed,
         m_transferred = g.m_transferred + excluded.m_transferred, m_spent = g.m_spent + excluded.m_spent;

  INSERT INTO ledger_reason_sums AS r (span, start, turma_id, kind, description, ops, meritus, estelecas)
  SELECT sums.span, sums.start, moved.turma_id, sums.kind, sums.description,
         moved.sign * sums.ops, moved.sign * sums.meritus, moved.sign * sums.estelecas
    FROM (SELECT spans.span, spans.start, CASE WHEN ledger_type_sign(e.type) = 1 THEN 'award' ELSE 'penalty' END AS kind,
                 btrim(e.description) AS description, sum(e.sign) AS ops,
                 coalesce(sum(e.sign * e.amount) FILTER (WHERE e.currency = 'meritus'), 0) AS meritus,
                 coalesce(sum(e.sign * e.amount) FILTER (WHERE e.currency = 'estelecas'), 0) AS estelecas
            FROM ledger_counted e
           CROSS JOIN LATERAL (VALUES ('d', (e.created_at AT TIME ZONE 'UTC')::date),
                                      ('m', date_trunc('month', e.created_at AT TIME ZONE 'UTC')::date)) AS spans(span, start)
           WHERE e.id IN (SELECT id FROM ledger_entries WHERE from_student_id = NEW.id OR to_student_id = NEW.id)
             AND (ledger_type_is_award(e.type, 1) OR ledger_type_is_award(e.type, -1)) AND (e.from_student_id = NEW.id OR (e.from_student_id IS NULL AND e.to_student_id = NEW.id))
           GROUP BY 1, 2, 3, 4) AS sums
   CROSS JOIN (VALUES (OLD.turma_id, -1), (NEW.turma_id, 1)) AS moved(turma_id, sign)
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (span, start, turma_id, kind, description) DO UPDATE
     SET ops = r.ops + excluded.ops, meritus = r.meritus + excluded.meritus, estelecas = r.estelecas + excluded.estelecas;
  RETURN NULL;
END
$$;

-- Emptying the ledger empties its sums.
CREATE OR REPLACE FUNCTION ledger_rollup_truncate() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE ledger_sums_pending, ledger_student_days, ledger_turma_days, ledger_reason_sums;
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER ledger_rollup_insert AFTER INSERT ON ledger_entries
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ledger_rollup();
CREATE OR REPLACE TRIGGER ledger_rollup_delete AFTER DELETE ON ledger_entries
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ledger_rollup();
CREATE OR REPLACE TRIGGER ledger_rollup_truncate AFTER TRUNCATE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_rollup_truncate();
CREATE OR REPLACE TRIGGER ledger_rollup_regrade AFTER UPDATE OF turma_id ON students
  FOR EACH ROW WHEN (OLD.turma_id IS DISTINCT FROM NEW.turma_id) EXECUTE FUNCTION ledger_rollup_regrade();
