-- The Loja's writes that move a balance (issue 35, decision 026): a purchase and the refund of an
-- order. Living SQL like ledger.sql (decision 007), applied after it (it uses ledger_replay(),
-- ledger_complete(), ledger_refuse() and ledger_entry_view()): the start-up re-applies it and a
-- test compares the deployed definitions with it. Change a store rule's atomic part here.
-- store.service.ts validates the request, renders the pt-BR texts (format() templates) and the
-- audit record of a refusal, and publishes the events; these functions, in one round trip:
-- - replay a repeated Idempotency-Key (a different request under the same key is a conflict);
-- - check on the committed rows first, answering a refusal at once without locking anything;
-- - lock the student (FOR NO KEY UPDATE), then the item's row, always in that order (a refund
--   locks the order between them), and check everything again under the locks;
-- - write the ledger row, the order, the balance and the counters together. The counters'
--   CHECKs (store_items_taken_within_stock, store_limit_uses_within) hold stock and limit in the
--   schema whatever the code does.
-- Both answer {outcome: 'completed'|'replayed', status, body} | {outcome: 'refused', reason} | {outcome: 'conflict'}.

-- The first day of the period of an item's per-student limit that `p_day` falls in (the school's
-- calendar day): a week starts on Monday; 'year' (the 'ano letivo') is the school year that began
-- last on or before the day (the days after its end, until the next begins, still count in it;
-- decision 031), or the calendar year before the school's first year; 'ever' is one period, named
-- by 1970-01-01.
CREATE OR REPLACE FUNCTION store_period_start(p_period text, p_day date) RETURNS date
LANGUAGE sql STABLE AS $$
  SELECT CASE p_period
    WHEN 'week' THEN date_trunc('week', p_day)::date
    WHEN 'month' THEN date_trunc('month', p_day)::date
    WHEN 'year' THEN coalesce((SELECT max(start_date) FROM school_years WHERE start_date <= p_day), date_trunc('year', p_day)::date)
    WHEN 'ever' THEN DATE '1970-01-01'
  END
$$;

-- An order's view in a response (src/shared/store.ts, storeOrder).
CREATE OR REPLACE FUNCTION store_order_view(p_order store_orders) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', p_order.id,
    'itemId', p_order.item_id,
    'studentId', p_order.student_id,
    'price', p_order.price,
    'currency', p_order.currency,
    'status', p_order.status,
    'reason', p_order.reason,
    'createdAt', to_char(p_order.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'decidedAt', to_char(p_order.decided_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  )
$$;

-- Why a student may not buy an item on a day, given the student's and the item's rows (a missing
-- row is all NULL) and the units the student already bought in the limit's period, or NULL:
-- student_missing; item_missing; is_goal; unavailable (inactive, outside its days, not for the
-- student's turma); sold_out; limit_reached; insufficient.
CREATE OR REPLACE FUNCTION store_purchase_refusal(p_student students, p_item store_items, p_day date, p_used integer) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF p_student.id IS NULL OR p_student.deleted_at IS NOT NULL THEN
    RETURN ledger_refuse('student_missing', NULL);
  ELSIF p_item.id IS NULL THEN
    RETURN ledger_refuse('item_missing', NULL);
  ELSIF p_item.category = 'turma' THEN
    RETURN ledger_refuse('is_goal', NULL);
  ELSIF NOT p_item.active OR p_day < p_item.available_from OR p_day > p_item.available_until
        OR (EXISTS (SELECT 1 FROM store_item_turmas WHERE item_id = p_item.id)
            AND NOT EXISTS (SELECT 1 FROM store_item_turmas WHERE item_id = p_item.id AND turma_id = p_student.turma_id)) THEN
    RETURN ledger_refuse('unavailable', NULL);
  ELSIF p_item.stock IS NOT NULL AND p_item.taken >= p_item.stock THEN
    RETURN ledger_refuse('sold_out', NULL);
  ELSIF p_item.limit_count IS NOT NULL AND p_used >= p_item.limit_count THEN
    RETURN ledger_refuse('limit_reached', jsonb_build_object('limit', p_item.limit_count, 'period', p_item.limit_period));
  ELSIF (CASE WHEN p_item.currency = 'meritus' THEN p_student.meritus ELSE p_student.estelecas END) < p_item.price THEN
    RETURN ledger_refuse('insufficient', NULL);
  END IF;
  RETURN NULL;
END
$$;

-- The units a student bought of an item in the limit's period a day falls in (0 without a limit).
CREATE OR REPLACE FUNCTION store_limit_used(p_item store_items, p_student_id uuid, p_day date) RETURNS integer
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN p_item.limit_count IS NULL THEN 0
    ELSE coalesce((SELECT used FROM store_limit_uses
                    WHERE item_id = p_item.id AND student_id = p_student_id
                      AND period_start = store_period_start(p_item.limit_period, p_day)), 0) END
$$;

-- A student buys one unit of an item.
-- p: {itemId, studentId, timeZone (the school's: its calendar day decides the item's days and the
--     limit's period), descriptionTemplate (%1$s the item's name), idempotency|null, status, createdAt|null}
-- The answer's body is the order, its ledger row, the student's turma and balances: the service adds the message.
-- Refusals: as store_purchase_refusal() finds them, first on the committed rows, then under the locks.
CREATE OR REPLACE FUNCTION store_purchase(p jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_replay jsonb := ledger_replay(p->'idempotency');
  v_student_id uuid := (p->>'studentId')::uuid;
  v_item_id uuid := (p->>'itemId')::uuid;
  v_created timestamptz := coalesce((p->>'createdAt')::timestamptz, now());
  v_day date := (v_created AT TIME ZONE (p->>'timeZone'))::date;
  v_student students%ROWTYPE;
  v_item store_items%ROWTYPE;
  v_period date;
  v_refusal jsonb;
  v_entry ledger_entries%ROWTYPE;
  v_order store_orders%ROWTYPE;
BEGIN
  IF v_replay IS NOT NULL THEN
    RETURN v_replay;
  END IF;

  SELECT * INTO v_student FROM students WHERE id = v_student_id;
  SELECT * INTO v_item FROM store_items WHERE id = v_item_id;
  v_refusal := store_purchase_refusal(v_student, v_item, v_day, store_limit_used(v_item, v_student_id, v_day));
  IF v_refusal IS NOT NULL THEN
    RETURN v_refusal;
  END IF;

  -- The student first (their purchases take turns, so the limit's count is exact), then the item
  -- (its buyers take turns on the last units: the second finds the first's).
  SELECT * INTO v_student FROM students WHERE id = v_student_id FOR NO KEY UPDATE;
  SELECT * INTO v_item FROM store_items WHERE id = v_item_id FOR NO KEY UPDATE;
  v_refusal := store_purchase_refusal(v_student, v_item, v_day, store_limit_used(v_item, v_student_id, v_day));
  IF v_refusal IS NOT NULL THEN
    RETURN v_refusal;
  END IF;

  UPDATE store_items SET taken = taken + 1 WHERE id = v_item_id;
  IF v_item.limit_count IS NOT NULL THEN
    v_period := store_period_start(v_item.limit_period, v_day);
    INSERT INTO store_limit_uses AS u (item_id, student_id, period_start, used, allowed)
      VALUES (v_item_id, v_student_id, v_period, 1, v_item.limit_count)
    ON CONFLICT (item_id, student_id, period_start) DO UPDATE SET used = u.used + 1, allowed = excluded.allowed;
  END IF;

  UPDATE students
     SET meritus = meritus - CASE WHEN v_item.currency = 'meritus' THEN v_item.price ELSE 0 END,
         estelecas = estelecas - CASE WHEN v_item.currency = 'estelecas' THEN v_item.price ELSE 0 END,
         updated_at = now()
   WHERE id = v_student_id
  RETURNING * INTO v_student;

  INSERT INTO ledger_entries (currency, type, amount, description, from_student_id, actor_kind, actor_name, created_at)
    VALUES (v_item.currency, 'purchase', v_item.price, format(p->>'descriptionTemplate', v_item.name),
            v_student_id, 'student', v_student.name, v_created)
  RETURNING * INTO v_entry;

  INSERT INTO store_orders (item_id, student_id, price, currency, limit_period_start, purchase_entry_id, created_at)
    VALUES (v_item_id, v_student_id, v_item.price, v_item.currency, v_period, v_entry.id, v_created)
  RETURNING * INTO v_order;

  RETURN ledger_complete(p->'idempotency', (p->>'status')::integer, jsonb_build_object(
    'order', store_order_view(v_order),
    'entryId', v_entry.id,
    'turmaId', v_student.turma_id,
    'balances', jsonb_build_object('meritus', v_student.meritus, 'totalEarned', v_student.total_earned, 'estelecas', v_student.estelecas)
  ));
END
$$;

-- Gives a student's pending order back: refused by the staff with a reason ('refuse', also when
-- the student is removed), or cancelled by its owner ('cancel'). The price returns to the balance as
-- a 'refund' row named by the order (refund_entry_id, unique), the unit to the stock and the place
-- to the limit's period it was counted in. The order is read again under the lock of its student
-- and its own, so a refusal and a cancellation at once give one refund, and the other finds the
-- order decided (not_pending). Not the total earned: a refund gives back what was spent.
-- p: {orderId, mode: 'refuse'|'cancel', studentId (cancel: the owner; another student's order is
--     missing), reason (refuse), adminId|null, adminName|null, descriptionTemplate (%1$s the item's
--     name), audit|null: {action, ip, details}, idempotency|null, status, createdAt|null}
-- The answer's body is as store_purchase()'s.
-- Refusals: order_missing; is_goal (a turma goal's order has no purchase to give back); not_pending.
CREATE OR REPLACE FUNCTION store_refund(p jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_replay jsonb := ledger_replay(p->'idempotency');
  v_order store_orders%ROWTYPE;
  v_item store_items%ROWTYPE;
  v_student students%ROWTYPE;
  v_entry ledger_entries%ROWTYPE;
  v_created timestamptz := coalesce((p->>'createdAt')::timestamptz, now());
  v_refuse boolean := p->>'mode' = 'refuse';
BEGIN
  IF v_replay IS NOT NULL THEN
    RETURN v_replay;
  END IF;
  IF p->>'mode' NOT IN ('refuse', 'cancel') OR (v_refuse AND coalesce(btrim(p->>'reason'), '') = '') THEN
    RAISE EXCEPTION 'store_refund: invalid request %', p USING ERRCODE = '22023';
  END IF;

  SELECT * INTO v_order FROM store_orders WHERE id = (p->>'orderId')::uuid;
  IF NOT FOUND OR (NOT v_refuse AND v_order.student_id IS DISTINCT FROM (p->>'studentId')::uuid) THEN
    RETURN ledger_refuse('order_missing', NULL);
  ELSIF v_order.student_id IS NULL THEN
    RETURN ledger_refuse('is_goal', NULL);
  ELSIF v_order.status <> 'pending' THEN
    RETURN ledger_refuse('not_pending', NULL);
  END IF;

  SELECT * INTO v_student FROM students WHERE id = v_order.student_id FOR NO KEY UPDATE;
  SELECT * INTO v_order FROM store_orders WHERE id = v_order.id FOR UPDATE;
  IF v_order.status <> 'pending' THEN
    RETURN ledger_refuse('not_pending', NULL);
  END IF;
  SELECT * INTO v_item FROM store_items WHERE id = v_order.item_id FOR NO KEY UPDATE;

  UPDATE students
     SET meritus = meritus + CASE WHEN v_order.currency = 'meritus' THEN v_order.price ELSE 0 END,
         estelecas = estelecas + CASE WHEN v_order.currency = 'estelecas' THEN v_order.price ELSE 0 END,
         updated_at = now()
   WHERE id = v_student.id
  RETURNING * INTO v_student;

  INSERT INTO ledger_entries (currency, type, amount, description, to_student_id, actor_kind, actor_admin_id, actor_name, created_at)
    VALUES (v_order.currency, 'refund', v_order.price, format(p->>'descriptionTemplate', v_item.name), v_student.id,
            CASE WHEN v_refuse THEN 'admin' ELSE 'student' END, (p->>'adminId')::uuid,
            CASE WHEN v_refuse THEN p->>'adminName' ELSE v_student.name END, v_created)
  RETURNING * INTO v_entry;

  UPDATE store_orders
     SET status = CASE WHEN v_refuse THEN 'refused' ELSE 'cancelled' END,
         reason = CASE WHEN v_refuse THEN btrim(p->>'reason') END,
         decided_at = v_created, decided_by = (p->>'adminId')::uuid, refund_entry_id = v_entry.id
   WHERE id = v_order.id
  RETURNING * INTO v_order;
  UPDATE store_items SET taken = taken - 1 WHERE id = v_item.id;
  UPDATE store_limit_uses SET used = used - 1
   WHERE item_id = v_item.id AND student_id = v_student.id AND period_start = v_order.limit_period_start;

  IF jsonb_typeof(p->'audit') = 'object' THEN
    INSERT INTO audit_log (actor_kind, actor_id, actor_label, action, ip, details)
      VALUES ('admin', (p->>'adminId')::uuid, p->>'adminName', p->'audit'->>'action', p->'audit'->>'ip',
              coalesce(p->'audit'->'details', '{}') || jsonb_build_object('orderId', v_order.id, 'entryId', v_entry.id));
  END IF;
  RETURN ledger_complete(p->'idempotency', (p->>'status')::integer, jsonb_build_object(
    'order', store_order_view(v_order),
    'entryId', v_entry.id,
    'turmaId', v_student.turma_id,
    'balances', jsonb_build_object('meritus', v_student.meritus, 'totalEarned', v_student.total_earned, 'estelecas', v_student.estelecas)
  ));
END
$$;
