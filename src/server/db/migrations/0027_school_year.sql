CREATE TABLE "school_periods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"year_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	CONSTRAINT "school_periods_dates_order" CHECK ("school_periods"."start_date" <= "school_periods"."end_date"),
	CONSTRAINT "school_periods_position_range" CHECK ("school_periods"."position" BETWEEN 1 AND 4)
);
--> statement-breakpoint
CREATE TABLE "school_year_rollovers" (
	"year_id" uuid PRIMARY KEY NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_by" uuid,
	"backup_file" text,
	"outcome" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "school_years" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"period_kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "school_years_dates_order" CHECK ("school_years"."start_date" <= "school_years"."end_date"),
	CONSTRAINT "school_years_period_kind_known" CHECK ("school_years"."period_kind" IN ('bimestre', 'trimestre'))
);
--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "departure" text;--> statement-breakpoint
ALTER TABLE "school_periods" ADD CONSTRAINT "school_periods_year_id_school_years_id_fk" FOREIGN KEY ("year_id") REFERENCES "public"."school_years"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_year_rollovers" ADD CONSTRAINT "school_year_rollovers_year_id_school_years_id_fk" FOREIGN KEY ("year_id") REFERENCES "public"."school_years"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_year_rollovers" ADD CONSTRAINT "school_year_rollovers_applied_by_admins_id_fk" FOREIGN KEY ("applied_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "school_periods_year_position_key" ON "school_periods" USING btree ("year_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "school_years_name_key" ON "school_years" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "school_years_start_idx" ON "school_years" USING btree ("start_date");--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_departure_removed" CHECK ("students"."departure" IS NULL OR ("students"."departure" IN ('graduated', 'left') AND "students"."deleted_at" IS NOT NULL));--> statement-breakpoint
-- No two years share a day, no two periods either (the years do not overlap, so that is the same as within a year);
-- the periods' is checked at commit, so an edit may move them one at a time (decision 031).
ALTER TABLE "school_years" ADD CONSTRAINT "school_years_no_overlap" EXCLUDE USING gist (daterange("start_date", "end_date", '[]') WITH &&);--> statement-breakpoint
ALTER TABLE "school_periods" ADD CONSTRAINT "school_periods_no_overlap" EXCLUDE USING gist (daterange("start_date", "end_date", '[]') WITH &&) DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
-- A period lies inside its year: checked at commit for each period written and each year whose dates changed.
CREATE FUNCTION school_periods_within_year() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM school_periods p JOIN school_years y ON y.id = p.year_id
              WHERE (CASE WHEN TG_TABLE_NAME = 'school_years' THEN y.id ELSE p.id END) = NEW.id
                AND (p.start_date < y.start_date OR p.end_date > y.end_date)) THEN
    RAISE EXCEPTION 'a school period lies outside its year' USING ERRCODE = '23514', CONSTRAINT = 'school_periods_within_year';
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "school_periods_within_year" AFTER INSERT OR UPDATE ON "school_periods"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION school_periods_within_year();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "school_years_periods_within" AFTER UPDATE OF "start_date", "end_date" ON "school_years"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION school_periods_within_year();--> statement-breakpoint
-- The year's closing entry (src/shared/ledger-types.ts): it lowers the student's balance.
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
    WHEN 'year_closing' THEN -1
  END
$$;--> statement-breakpoint
-- An existing school comes into years: one 'Ano letivo YYYY' per calendar year (the school's time zone) from its first
-- row to its last (ledger rows, orders, tags), 1 January to 31 December, in four bimestres of three months, so every
-- row has its year and period. An empty database gets none (the demo seed and the coordination create them).
INSERT INTO "school_years" ("name", "start_date", "end_date", "period_kind")
SELECT 'Ano letivo ' || y, make_date(y, 1, 1), make_date(y, 12, 31), 'bimestre'
  FROM (SELECT coalesce((SELECT time_zone FROM school_settings WHERE id = 1), 'America/Sao_Paulo') AS tz) zone,
       LATERAL (SELECT min(at) AS first, max(at) AS last FROM (
                  SELECT min(created_at) AS at FROM ledger_entries UNION ALL SELECT max(created_at) FROM ledger_entries
                  UNION ALL SELECT min(created_at) FROM store_orders UNION ALL SELECT max(created_at) FROM store_orders
                  UNION ALL SELECT min(assigned_at) FROM student_tags UNION ALL SELECT max(assigned_at) FROM student_tags) ends) span,
       LATERAL generate_series(extract(year FROM span.first AT TIME ZONE zone.tz)::int,
                               extract(year FROM span.last AT TIME ZONE zone.tz)::int) AS y
 WHERE span.first IS NOT NULL;--> statement-breakpoint
INSERT INTO "school_periods" ("year_id", "position", "start_date", "end_date")
SELECT y.id, q, (y.start_date + make_interval(months => 3 * (q - 1)))::date, (y.start_date + make_interval(months => 3 * q))::date - 1
  FROM school_years y CROSS JOIN generate_series(1, 4) AS q;
