-- A student's transfer in one round trip (decision 006). ledger.service.ts validates the
-- request and renders the texts (passed in as format() templates) and the audit record of
-- a refusal; this function does the atomic part: a repeated Idempotency-Key replays its
-- stored response; both students are locked in id order (crossing transfers cannot
-- deadlock); the balance is checked under the lock; both balances move with the ledger row,
-- and the response is stored under the key. A concurrent repeat that gets past the first
-- check fails on the key's primary key when storing it and rolls back whole; the caller
-- asks again and gets the replay. A refusal writes no ledger row and no key (a retry runs
-- anew), only its audit record.
CREATE FUNCTION ledger_transfer(
  p_currency text,
  p_sender uuid,
  p_recipient uuid,
  p_amount integer,
  p_description text,
  p_description_template text,
  p_message_template text,
  p_actor_key text,
  p_key text,
  p_request_hash text,
  p_status integer,
  p_created_at timestamptz,
  p_refusal_audit jsonb
) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  existing idempotency_keys%ROWTYPE;
  locked students%ROWTYPE;
  sender students%ROWTYPE;
  recipient students%ROWTYPE;
  refusal text;
  debit_meritus integer := CASE WHEN p_currency = 'meritus' THEN p_amount ELSE 0 END;
  debit_estelecas integer := CASE WHEN p_currency = 'estelecas' THEN p_amount ELSE 0 END;
  entry_id uuid := gen_random_uuid();
  created timestamptz := coalesce(p_created_at, now());
  description text;
  body jsonb;
BEGIN
  IF p_key IS NOT NULL THEN
    SELECT * INTO existing FROM idempotency_keys WHERE actor_key = p_actor_key AND key = p_key;
    IF FOUND THEN
      IF existing.request_hash <> p_request_hash THEN
        RETURN jsonb_build_object('outcome', 'conflict');
      END IF;
      RETURN jsonb_build_object('outcome', 'replayed', 'status', existing.status_code, 'body', existing.response);
    END IF;
  END IF;

  FOR locked IN
    SELECT * FROM students WHERE id IN (p_sender, p_recipient) AND deleted_at IS NULL ORDER BY id FOR UPDATE
  LOOP
    IF locked.id = p_sender THEN sender := locked; ELSE recipient := locked; END IF;
  END LOOP;

  IF sender.id IS NULL THEN
    refusal := 'sender_missing';
  ELSIF recipient.id IS NULL THEN
    refusal := 'recipient_missing';
  ELSIF sender.meritus < debit_meritus OR sender.estelecas < debit_estelecas THEN
    refusal := 'insufficient';
  END IF;
  IF refusal IS NOT NULL THEN
    IF p_refusal_audit IS NOT NULL THEN
      INSERT INTO audit_log (actor_kind, actor_id, actor_label, action, ip, details)
        VALUES (p_refusal_audit->>'actorKind', (p_refusal_audit->>'actorId')::uuid, p_refusal_audit->>'actorLabel',
                p_refusal_audit->>'action', p_refusal_audit->>'ip',
                (p_refusal_audit->'details') || (p_refusal_audit->'outcomes'->refusal));
    END IF;
    RETURN jsonb_build_object('outcome', 'refused', 'reason', refusal);
  END IF;

  UPDATE students
     SET meritus = meritus - debit_meritus, estelecas = estelecas - debit_estelecas, updated_at = now()
   WHERE id = p_sender
  RETURNING * INTO sender;
  UPDATE students
     SET meritus = meritus + debit_meritus, estelecas = estelecas + debit_estelecas, updated_at = now()
   WHERE id = p_recipient;

  description := coalesce(p_description, format(p_description_template, sender.name, recipient.name));
  INSERT INTO ledger_entries (id, currency, type, amount, description, from_student_id, to_student_id, actor_kind, actor_name, created_at)
    VALUES (entry_id, p_currency, 'transfer', p_amount, description, p_sender, p_recipient, 'student', sender.name, created);

  body := jsonb_build_object(
    'entry', jsonb_build_object(
      'id', entry_id,
      'currency', p_currency,
      'type', 'transfer',
      'amount', p_amount,
      'description', description,
      'createdAt', to_char(created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    ),
    'message', format(p_message_template, recipient.name),
    'balances', jsonb_build_object('meritus', sender.meritus, 'totalEarned', sender.total_earned, 'estelecas', sender.estelecas)
  );
  IF p_key IS NOT NULL THEN
    INSERT INTO idempotency_keys (actor_key, key, request_hash, status_code, response)
      VALUES (p_actor_key, p_key, p_request_hash, p_status, body);
  END IF;
  RETURN jsonb_build_object('outcome', 'completed', 'status', p_status, 'body', body);
END
$$;
