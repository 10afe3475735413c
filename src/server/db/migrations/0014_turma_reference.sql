-- Students reference their turma by id, and the reports' sums are keyed on it (decision 013).
-- Every name a student has (removed students too) becomes a turma: the school's turma of that
-- name, compared regardless of case as the students' service and the list's unique index do,
-- or else a turma made here, retired, after the school's last: its students stay in it with
-- their history, it does not join the turmas offered to new students, and an administrator
-- may restore it or rename it (spellings of one name that differ only in case make one turma,
-- named as the first of them in byte order, the same on every database).
INSERT INTO "turmas" ("name", "position", "retired_at")
SELECT min(s.grade COLLATE "C"), (SELECT coalesce(max("position"), -1) FROM "turmas") + row_number() OVER (ORDER BY lower(s.grade)), now()
  FROM "students" s
 WHERE NOT EXISTS (SELECT 1 FROM "turmas" t WHERE lower(t.name) = lower(s.grade))
 GROUP BY lower(s.grade);
--> statement-breakpoint
-- ledger.sql's trigger on students.grade (the living SQL creates its successor on turma_id).
DROP TRIGGER IF EXISTS "ledger_rollup_regrade" ON "students";--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "turma_id" uuid;--> statement-breakpoint
UPDATE "students" s SET "turma_id" = t.id FROM "turmas" t WHERE lower(t.name) = lower(s.grade);--> statement-breakpoint
ALTER TABLE "students" ALTER COLUMN "turma_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_turma_id_turmas_id_fk" FOREIGN KEY ("turma_id") REFERENCES "public"."turmas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "students" DROP COLUMN "grade";--> statement-breakpoint
-- The reports' sums are built again from the ledger, keyed on the turma, as migration 0009
-- built them (a turma's day in slot 0, as 0011 left the days before it): the rows still queued
-- are in the ledger already, so the queue empties, and a name the sums kept for a turma since
-- renamed has nothing left to carry over.
TRUNCATE "ledger_sums_pending", "ledger_student_days", "ledger_reason_sums";--> statement-breakpoint
DROP TABLE "ledger_grade_days";--> statement-breakpoint
CREATE TABLE "ledger_turma_days" (
	"turma_id" uuid NOT NULL,
	"day" date NOT NULL,
	"m_awarded" bigint NOT NULL,
	"m_removed" bigint NOT NULL,
	"m_transferred" bigint NOT NULL,
	"slot" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "ledger_turma_days_turma_id_day_slot_pk" PRIMARY KEY("turma_id","day","slot")
);
--> statement-breakpoint
ALTER TABLE "ledger_turma_days" ADD CONSTRAINT "ledger_turma_days_turma_id_turmas_id_fk" FOREIGN KEY ("turma_id") REFERENCES "public"."turmas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_reason_sums" DROP CONSTRAINT "ledger_reason_sums_span_start_grade_kind_description_pk";--> statement-breakpoint
ALTER TABLE "ledger_reason_sums" DROP COLUMN "grade";--> statement-breakpoint
ALTER TABLE "ledger_reason_sums" ADD COLUMN "turma_id" uuid NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_reason_sums" ADD CONSTRAINT "ledger_reason_sums_span_start_turma_id_kind_description_pk" PRIMARY KEY("span","start","turma_id","kind","description");--> statement-breakpoint
ALTER TABLE "ledger_reason_sums" ADD CONSTRAINT "ledger_reason_sums_turma_id_turmas_id_fk" FOREIGN KEY ("turma_id") REFERENCES "public"."turmas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_sums_pending" DROP COLUMN "grade";--> statement-breakpoint
ALTER TABLE "ledger_sums_pending" ADD COLUMN "turma_id" uuid NOT NULL;--> statement-breakpoint
INSERT INTO "ledger_student_days" ("student_id", "day", "m_awarded", "m_removed", "m_in", "m_out", "e_awarded", "e_removed", "e_in", "e_out", "sent_ops", "ops")
SELECT student_id, day,
       sum(sum(m_awarded)) OVER w, sum(sum(m_removed)) OVER w, sum(sum(m_in)) OVER w, sum(sum(m_out)) OVER w,
       sum(sum(e_awarded)) OVER w, sum(sum(e_removed)) OVER w, sum(sum(e_in)) OVER w, sum(sum(e_out)) OVER w,
       sum(sum(sent_ops)) OVER w, sum(count(*)) OVER w
  FROM (
    SELECT to_student_id AS student_id, (created_at AT TIME ZONE 'UTC')::date AS day,
           CASE WHEN currency = 'meritus' AND type <> 'transfer' THEN amount ELSE 0 END AS m_awarded, 0 AS m_removed,
           CASE WHEN currency = 'meritus' AND type = 'transfer' THEN amount ELSE 0 END AS m_in, 0 AS m_out,
           CASE WHEN currency = 'estelecas' AND type <> 'transfer' THEN amount ELSE 0 END AS e_awarded, 0 AS e_removed,
           CASE WHEN currency = 'estelecas' AND type = 'transfer' THEN amount ELSE 0 END AS e_in, 0 AS e_out, 0 AS sent_ops
      FROM "ledger_entries" WHERE to_student_id IS NOT NULL
    UNION ALL
    SELECT from_student_id, (created_at AT TIME ZONE 'UTC')::date,
           0, CASE WHEN currency = 'meritus' AND type <> 'transfer' THEN amount ELSE 0 END,
           0, CASE WHEN currency = 'meritus' AND type = 'transfer' THEN amount ELSE 0 END,
           0, CASE WHEN currency = 'estelecas' AND type <> 'transfer' THEN amount ELSE 0 END,
           0, CASE WHEN currency = 'estelecas' AND type = 'transfer' THEN amount ELSE 0 END,
           CASE WHEN type = 'transfer' THEN 1 ELSE 0 END
      FROM "ledger_entries" WHERE from_student_id IS NOT NULL
  ) AS sides
 GROUP BY student_id, day
WINDOW w AS (PARTITION BY student_id ORDER BY day);
--> statement-breakpoint
INSERT INTO "ledger_turma_days" ("turma_id", "day", "m_awarded", "m_removed", "m_transferred")
SELECT s.turma_id, (e.created_at AT TIME ZONE 'UTC')::date,
       coalesce(sum(e.amount) FILTER (WHERE e.type IN ('admin_add', 'reward')), 0),
       coalesce(sum(e.amount) FILTER (WHERE e.type IN ('admin_remove', 'penalty')), 0),
       coalesce(sum(e.amount) FILTER (WHERE e.type = 'transfer'), 0)
  FROM "ledger_entries" e JOIN "students" s ON s.id = coalesce(e.from_student_id, e.to_student_id)
 WHERE e.currency = 'meritus'
 GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO "ledger_reason_sums" ("span", "start", "turma_id", "kind", "description", "ops", "meritus", "estelecas")
SELECT spans.span, spans.start, s.turma_id, CASE WHEN e.type IN ('admin_add', 'reward') THEN 'award' ELSE 'penalty' END, btrim(e.description),
       count(*), coalesce(sum(e.amount) FILTER (WHERE e.currency = 'meritus'), 0), coalesce(sum(e.amount) FILTER (WHERE e.currency = 'estelecas'), 0)
  FROM "ledger_entries" e JOIN "students" s ON s.id = coalesce(e.from_student_id, e.to_student_id)
 CROSS JOIN LATERAL (VALUES ('d', (e.created_at AT TIME ZONE 'UTC')::date),
                            ('m', date_trunc('month', e.created_at AT TIME ZONE 'UTC')::date)) AS spans(span, start)
 WHERE e.type <> 'transfer'
 GROUP BY 1, 2, 3, 4, 5;
