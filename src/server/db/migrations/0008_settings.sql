CREATE TABLE "school_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"name" text NOT NULL,
	"logo_url" text,
	"time_zone" text NOT NULL,
	"rules" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "school_settings_one_row" CHECK ("school_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "turmas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "school_settings" ADD CONSTRAINT "school_settings_updated_by_admins_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "turmas_name_key" ON "turmas" USING btree (lower("name"));--> statement-breakpoint
-- The spec's twelve turmas are every school's first list (decision 009), then any other turma a student is already in.
INSERT INTO "turmas" ("name", "position")
SELECT name, position - 1 FROM unnest(ARRAY[
  '1º EM - Turma A', '1º EM - Turma B', '1º EM - Turma C', '1º EM - Turma D',
  '2º EM - Turma A', '2º EM - Turma B', '2º EM - Turma C', '2º EM - Turma D',
  '3º EM - Turma A', '3º EM - Turma B', '3º EM - Turma C', '3º EM - Turma D'
]) WITH ORDINALITY AS t(name, position);
--> statement-breakpoint
INSERT INTO "turmas" ("name", "position")
SELECT grade, 11 + row_number() OVER (ORDER BY grade) FROM (SELECT DISTINCT grade FROM "students") s
 WHERE lower(grade) NOT IN (SELECT lower(name) FROM "turmas");
