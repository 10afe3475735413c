CREATE TABLE "ledger_grade_days" (
	"grade" text NOT NULL,
	"day" date NOT NULL,
	"m_awarded" bigint NOT NULL,
	"m_removed" bigint NOT NULL,
	"m_transferred" bigint NOT NULL,
	CONSTRAINT "ledger_grade_days_grade_day_pk" PRIMARY KEY("grade","day")
);
--> statement-breakpoint
CREATE TABLE "ledger_reason_sums" (
	"span" text NOT NULL,
	"start" date NOT NULL,
	"grade" text NOT NULL,
	"kind" text NOT NULL,
	"description" text NOT NULL,
	"ops" bigint NOT NULL,
	"meritus" bigint NOT NULL,
	"estelecas" bigint NOT NULL,
	CONSTRAINT "ledger_reason_sums_span_start_grade_kind_description_pk" PRIMARY KEY("span","start","grade","kind","description")
);
--> statement-breakpoint
CREATE TABLE "ledger_student_days" (
	"student_id" uuid NOT NULL,
	"day" date NOT NULL,
	"m_awarded" bigint NOT NULL,
	"m_removed" bigint NOT NULL,
	"m_in" bigint NOT NULL,
	"m_out" bigint NOT NULL,
	"e_awarded" bigint NOT NULL,
	"e_removed" bigint NOT NULL,
	"e_in" bigint NOT NULL,
	"e_out" bigint NOT NULL,
	"sent_ops" bigint NOT NULL,
	"ops" bigint NOT NULL,
	CONSTRAINT "ledger_student_days_student_id_day_pk" PRIMARY KEY("student_id","day")
);
--> statement-breakpoint
ALTER TABLE "ledger_student_days" ADD CONSTRAINT "ledger_student_days_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
-- The sums of the ledger so far (decision 011); ledger.sql's triggers keep them from here on.
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
INSERT INTO "ledger_grade_days" ("grade", "day", "m_awarded", "m_removed", "m_transferred")
SELECT s.grade, (e.created_at AT TIME ZONE 'UTC')::date,
       coalesce(sum(e.amount) FILTER (WHERE e.type IN ('admin_add', 'reward')), 0),
       coalesce(sum(e.amount) FILTER (WHERE e.type IN ('admin_remove', 'penalty')), 0),
       coalesce(sum(e.amount) FILTER (WHERE e.type = 'transfer'), 0)
  FROM "ledger_entries" e JOIN "students" s ON s.id = coalesce(e.from_student_id, e.to_student_id)
 WHERE e.currency = 'meritus'
 GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO "ledger_reason_sums" ("span", "start", "grade", "kind", "description", "ops", "meritus", "estelecas")
SELECT spans.span, spans.start, s.grade, CASE WHEN e.type IN ('admin_add', 'reward') THEN 'award' ELSE 'penalty' END, btrim(e.description),
       count(*), coalesce(sum(e.amount) FILTER (WHERE e.currency = 'meritus'), 0), coalesce(sum(e.amount) FILTER (WHERE e.currency = 'estelecas'), 0)
  FROM "ledger_entries" e JOIN "students" s ON s.id = coalesce(e.from_student_id, e.to_student_id)
 CROSS JOIN LATERAL (VALUES ('d', (e.created_at AT TIME ZONE 'UTC')::date),
                            ('m', date_trunc('month', e.created_at AT TIME ZONE 'UTC')::date)) AS spans(span, start)
 WHERE e.type <> 'transfer'
 GROUP BY 1, 2, 3, 4, 5;
