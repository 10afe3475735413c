-- Turma goals (issue 35, decision 026): the writes of a goal's contributions and of their refunds, in one round trip each,
-- like the ledger's (decision 007). Living SQL: the start-up re-applies it (CREATE OR REPLACE) after the migrations, and a
-- test compares the deployed definitions with it. store-goals.service.ts validates, renders the pt-BR texts (as format()
-- templates: the goal's name is read here) and publishes the events.
--
-- Locks, always in this order: the item (FOR KEY SHARE: a change of its goal, which cascades to the progress, waits),
-- the goal's progress row (FOR UPDATE: contributions and refunds of one goal take turns), then the students in id order.

-- Why a contribution would be refused, given the goal's item, its progress (all NULL before the first contribution) and
-- the student (all NULL when missing), or NULL: student_missing; unavailable (inactive, outside its days, past its
-- deadline, its contributions given back, or not of the student's turma); reached; exceeds {left}; insufficient.
CREATE OR REPLACE FUNCTION store_goal_refusal(p jsonb, p_item store_items, p_progress store_goal_progress, p_student students) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_today date := (p->>'today')::date;
  v_amount integer := (p->>'amount')::integer;
  v_raised integer := coalesce(p_progress.raised, 0);
BEGIN
  IF p_student.id IS NULL OR p_student.deleted_at IS NOT NULL THEN
    RETURN ledger_refuse('student_missing', NULL);
  END IF;
  IF NOT p_item.active OR p_item.available_from > v_today OR p_item.available_until < v_today OR p_item.deadline < v_today
     OR p_progress.refunded_at IS NOT NULL
     OR (EXISTS (SELECT 1 FROM store_item_turmas WHERE item_id = p_item.id)
         AND NOT EXISTS (SELECT 1 FROM store_item_turmas WHERE item_id = p_item.id AND turma_id = p_student.turma_id)) THEN
    RETURN ledger_refuse('unavailable', NULL);
  END IF;
  IF p_progress.reached_at IS NOT NULL THEN
    RETURN ledger_refuse('reached', NULL);
  END IF;
  IF v_amount > p_item.goal - v_raised THEN
    RETURN ledger_refuse('exceeds', jsonb_build_object('left', p_item.goal - v_raised));
  END IF;
  IF (CASE WHEN p_item.currency = 'meritus' THEN p_student.meritus ELSE p_student.estelecas END) < v_amount THEN
    RETURN ledger_refuse('insufficient', NULL);
  END IF;
  RETURN NULL;
END
$$;

-- A student's contribution to a turma goal: the `contribution` ledger row, the contribution's record and the goal's
-- progress, and, when it reaches the goal, the goal's one order (no student, price = goal) for the staff to deliver.
-- p: {itemId, studentId, amount, today (the school's day, 'YYYY-MM-DD'), descriptionTemplate (%1$s the goal's name),
--     messageTemplate (%1$s the goal's name), reachedMessage, idempotency|null, status, createdAt|null}
-- Refusals: not_found; not_a_goal; and store_goal_refusal()'s, first on the committed rows (answered at once: nothing is
-- locked or written), then under the locks.
-- Answers {message, balances, raised, myContribution, reached, entryId, orderId|null, turmaIds|null (null: every turma)}.
CREATE OR REPLACE FUNCTION store_goal_contribute(p jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_replay jsonb := ledger_replay(p->'idempotency');
  v_item_id uuid := (p->>'itemId')::uuid;
  v_student_id uuid := (p->>'studentId')::uuid;
  v_amount integer := (p->>'amount')::integer;
  v_created timestamptz := coalesce((p->>'createdAt')::timestamptz, now());
  v_item store_items%ROWTYPE;
  v_progress store_goal_progress%ROWTYPE;
  v_student students%ROWTYPE;
  v_entry ledger_entries%ROWTYPE;
  v_refusal jsonb;
  v_order_id uuid;
  v_mine bigint;
BEGIN
  IF v_replay IS NOT NULL THEN
    RETURN v_replay;
  END IF;
  IF v_amount IS NULL OR v_amount < 1 OR (p->>'today') IS NULL THEN
    RAISE EXCEPTION 'store_goal_contribute: invalid request %', p USING ERRCODE = '22023';
  END IF;

  SELECT * INTO v_item FROM store_items WHERE id = v_item_id;
  IF NOT FOUND THEN
    RETURN ledger_refuse('not_found', NULL);
  ELSIF v_item.category <> 'turma' THEN
    RETURN ledger_refuse('not_a_goal', NULL);
  END IF;
  SELECT * INTO v_progress FROM store_goal_progress WHERE item_id = v_item_id;
  SELECT * INTO v_student FROM students WHERE id = v_student_id;
  v_refusal := store_goal_refusal(p, v_item, v_progress, v_student);
  IF v_refusal IS NOT NULL THEN
    RETURN v_refusal;
  END IF;

  SELECT * INTO v_item FROM store_items WHERE id = v_item_id FOR KEY SHARE;
  IF NOT FOUND OR v_item.category <> 'turma' THEN
    RETURN ledger_refuse(CASE WHEN v_item.id IS NULL THEN 'not_found' ELSE 'not_a_goal' END, NULL);
  END IF;
  -- The goal's progress starts with its first contribution.
  INSERT INTO store_goal_progress (item_id, goal) VALUES (v_item.id, v_item.goal) ON CONFLICT (item_id) DO NOTHING;
  SELECT * INTO v_progress FROM store_goal_progress WHERE item_id = v_item_id FOR UPDATE;
  SELECT * INTO v_student FROM students WHERE id = v_student_id FOR NO KEY UPDATE;
  v_refusal := store_goal_refusal(p, v_item, v_progress, v_student);
  IF v_refusal IS NOT NULL THEN
    RETURN v_refusal;
  END IF;

  UPDATE students
     SET meritus = meritus - CASE WHEN v_item.currency = 'meritus' THEN v_amount ELSE 0 END,
         estelecas = estelecas - CASE WHEN v_item.currency = 'estelecas' THEN v_amount ELSE 0 END,
         updated_at = now()
   WHERE id = v_student_id
  RETURNING * INTO v_student;
  INSERT INTO ledger_entries (currency, type, amount, description, from_student_id, actor_kind, actor_name, created_at)
    VALUES (v_item.currency, 'contribution', v_amount, format(p->>'descriptionTemplate', v_item.name), v_student_id,
            'student', v_student.name, v_created)
  RETURNING * INTO v_entry;
  INSERT INTO store_goal_contributions (item_id, student_id, amount, entry_id, created_at)
    VALUES (v_item_id, v_student_id, v_amount, v_entry.id, v_created);

  IF v_progress.raised + v_amount = v_progress.goal THEN
    INSERT INTO store_orders (item_id, student_id, price, currency, status, created_at)
      VALUES (v_item_id, NULL, v_progress.goal, v_item.currency, 'pending', v_created)
    RETURNING id INTO v_order_id;
  END IF;
  UPDATE store_goal_progress
     SET raised = raised + v_amount,
         reached_at = CASE WHEN v_order_id IS NULL THEN NULL ELSE v_created END,
         order_id = v_order_id
   WHERE item_id = v_item_id
  RETURNING * INTO v_progress;

  SELECT coalesce(sum(amount), 0) INTO v_mine FROM store_goal_contributions
   WHERE item_id = v_item_id AND student_id = v_student_id AND refund_entry_id IS NULL;
  RETURN ledger_complete(p->'idempotency', (p->>'status')::integer, jsonb_build_object(
    'message', CASE WHEN v_order_id IS NULL THEN format(p->>'messageTemplate', v_item.name) ELSE p->>'reachedMessage' END,
    'balances', jsonb_build_object('meritus', v_student.meritus, 'totalEarned', v_student.total_earned, 'estelecas', v_student.estelecas),
    'raised', v_progress.raised,
    'myContribution', v_mine,
    'reached', v_order_id IS NOT NULL,
    'entryId', v_entry.id,
    'orderId', v_order_id,
    'turmaIds', (SELECT jsonb_agg(turma_id ORDER BY turma_id) FROM store_item_turmas WHERE item_id = v_item_id)
  ));
END
$$;

-- Gives back every contribution of a goal not given back yet, each as its own `refund` ledger row (named in its
-- contribution's record: at most once), and closes the goal (raised back to zero): when its deadline passed before it was
-- reached (reason 'deadline'), or when its order was refused ('order_refused'). Run by the periodic job and after a
-- refusal; the goal's state, read under its lock, makes a second run (another instance, a restart) find nothing to do.
-- p: {itemId, reason, today (the school's day), descriptionTemplate (%1$s the goal's name), adminId|null, actorName}
-- Answers {outcome: 'completed', body: {entryIds, studentUuids, turmaIds|null}} or a refusal 'not_due'.
CREATE OR REPLACE FUNCTION store_goal_refund(p jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_item_id uuid := (p->>'itemId')::uuid;
  v_reason text := p->>'reason';
  v_item store_items%ROWTYPE;
  v_progress store_goal_progress%ROWTYPE;
  v_contribution record;
  v_entry_id uuid;
  v_entries uuid[] := '{}';
  v_students uuid[];
BEGIN
  IF v_reason NOT IN ('deadline', 'order_refused') OR (p->>'today') IS NULL THEN
    RAISE EXCEPTION 'store_goal_refund: invalid request %', p USING ERRCODE = '22023';
  END IF;
  SELECT * INTO v_item FROM store_items WHERE id = v_item_id FOR KEY SHARE;
  SELECT * INTO v_progress FROM store_goal_progress WHERE item_id = v_item_id FOR UPDATE;
  IF NOT FOUND OR v_progress.refunded_at IS NOT NULL
     OR (v_reason = 'deadline' AND (v_progress.reached_at IS NOT NULL OR v_item.deadline >= (p->>'today')::date))
     OR (v_reason = 'order_refused'
         AND NOT EXISTS (SELECT 1 FROM store_orders WHERE id = v_progress.order_id AND status = 'refused')) THEN
    RETURN ledger_refuse('not_due', NULL);
  END IF;

  v_students := ARRAY(SELECT DISTINCT student_id FROM store_goal_contributions
                       WHERE item_id = v_item_id AND refund_entry_id IS NULL ORDER BY student_id);
  PERFORM 1 FROM students WHERE id = ANY(v_students) ORDER BY id FOR NO KEY UPDATE;
  -- Each in the currency it was given in: the goal's cannot change once contributed to (store-goals.service.ts), but a
  -- refund is exact whatever.
  FOR v_contribution IN
    SELECT c.id, c.student_id, c.amount, e.currency FROM store_goal_contributions c JOIN ledger_entries e ON e.id = c.entry_id
     WHERE c.item_id = v_item_id AND c.refund_entry_id IS NULL ORDER BY c.created_at, c.id
  LOOP
    INSERT INTO ledger_entries (currency, type, amount, description, to_student_id, actor_kind, actor_admin_id, actor_name)
      VALUES (v_contribution.currency, 'refund', v_contribution.amount, format(p->>'descriptionTemplate', v_item.name),
              v_contribution.student_id, CASE WHEN p->>'adminId' IS NULL THEN 'system' ELSE 'admin' END,
              (p->>'adminId')::uuid, p->>'actorName')
    RETURNING id INTO v_entry_id;
    UPDATE store_goal_contributions SET refund_entry_id = v_entry_id WHERE id = v_contribution.id;
    v_entries := v_entries || v_entry_id;
  END LOOP;
  UPDATE students s
     SET meritus = s.meritus + back.meritus, estelecas = s.estelecas + back.estelecas, updated_at = now()
    FROM (SELECT to_student_id AS student_id,
                 coalesce(sum(amount) FILTER (WHERE currency = 'meritus'), 0)::integer AS meritus,
                 coalesce(sum(amount) FILTER (WHERE currency = 'estelecas'), 0)::integer AS estelecas
            FROM ledger_entries WHERE id = ANY(v_entries) GROUP BY to_student_id) back
   WHERE s.id = back.student_id;
  UPDATE store_goal_progress SET raised = 0, refunded_at = now(), refund_reason = v_reason WHERE item_id = v_item_id;

  INSERT INTO audit_log (actor_kind, actor_id, actor_label, action, ip, details)
    VALUES (CASE WHEN p->>'adminId' IS NULL THEN 'system' ELSE 'admin' END, (p->>'adminId')::uuid, p->>'actorName',
            'store.goal_refunded', NULL,
            jsonb_build_object('itemId', v_item_id, 'reason', v_reason, 'refunds', cardinality(v_entries),
                               'amount', v_progress.raised));
  RETURN jsonb_build_object('outcome', 'completed', 'status', 200,
                            'body', jsonb_build_object('entryIds', to_jsonb(v_entries), 'studentUuids', to_jsonb(v_students),
                                                       'turmaIds', (SELECT jsonb_agg(turma_id ORDER BY turma_id)
                                                                      FROM store_item_turmas WHERE item_id = v_item_id)));
END
$$;

-- The staff refuse a reached goal's order (which names no student, so store_refund() leaves it): the order is refused
-- with its reason, and every contribution is given back at once, in the same transaction (store_goal_refund()).
-- p: {orderId, reason, adminId, adminName, today, descriptionTemplate (%1$s the goal's name), audit: {action, ip, details},
--     idempotency|null, status, createdAt|null}
-- Refusals: order_missing; not_pending. Answers {order, message, entryIds, studentUuids, turmaIds|null}.
CREATE OR REPLACE FUNCTION store_goal_refuse_order(p jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_replay jsonb := ledger_replay(p->'idempotency');
  v_order store_orders%ROWTYPE;
  v_refund jsonb;
BEGIN
  IF v_replay IS NOT NULL THEN
    RETURN v_replay;
  END IF;
  IF coalesce(btrim(p->>'reason'), '') = '' OR (p->>'adminId') IS NULL THEN
    RAISE EXCEPTION 'store_goal_refuse_order: invalid request %', p USING ERRCODE = '22023';
  END IF;
  SELECT * INTO v_order FROM store_orders WHERE id = (p->>'orderId')::uuid AND student_id IS NULL;
  IF NOT FOUND THEN
    RETURN ledger_refuse('order_missing', NULL);
  END IF;
  PERFORM 1 FROM store_items WHERE id = v_order.item_id FOR KEY SHARE;
  PERFORM 1 FROM store_goal_progress WHERE item_id = v_order.item_id FOR UPDATE;
  SELECT * INTO v_order FROM store_orders WHERE id = v_order.id FOR UPDATE;
  IF v_order.status <> 'pending' THEN
    RETURN ledger_refuse('not_pending', NULL);
  END IF;
  UPDATE store_orders
     SET status = 'refused', reason = btrim(p->>'reason'), decided_at = coalesce((p->>'createdAt')::timestamptz, now()),
         decided_by = (p->>'adminId')::uuid
   WHERE id = v_order.id
  RETURNING * INTO v_order;
  INSERT INTO audit_log (actor_kind, actor_id, actor_label, action, ip, details)
    VALUES ('admin', (p->>'adminId')::uuid, p->>'adminName', p->'audit'->>'action', p->'audit'->>'ip',
            coalesce(p->'audit'->'details', '{}') || jsonb_build_object('orderId', v_order.id));
  v_refund := store_goal_refund(jsonb_build_object(
    'itemId', v_order.item_id, 'reason', 'order_refused', 'today', p->>'today', 'descriptionTemplate', p->>'descriptionTemplate',
    'adminId', p->>'adminId', 'actorName', p->>'adminName'));
  IF v_refund->>'outcome' <> 'completed' THEN
    RAISE EXCEPTION 'store_goal_refuse_order: the goal of order % was given back already', v_order.id;
  END IF;
  RETURN ledger_complete(p->'idempotency', (p->>'status')::integer, jsonb_build_object(
    'order', store_order_view(v_order),
    'message', p->>'message',
    'entryIds', v_refund->'body'->'entryIds',
    'studentUuids', v_refund->'body'->'studentUuids',
    'turmaIds', v_refund->'body'->'turmaIds'
  ));
END
$$;
