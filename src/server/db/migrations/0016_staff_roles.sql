CREATE TABLE "staff_turmas" (
	"admin_id" uuid NOT NULL,
	"turma_id" uuid NOT NULL,
	CONSTRAINT "staff_turmas_admin_id_turma_id_pk" PRIMARY KEY("admin_id","turma_id")
);
--> statement-breakpoint
ALTER TABLE "admins" ALTER COLUMN "role" SET DEFAULT 'coordinator';--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "weekly_budget_meritus" integer;--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "weekly_budget_estelecas" integer;--> statement-breakpoint
ALTER TABLE "staff_turmas" ADD CONSTRAINT "staff_turmas_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_turmas" ADD CONSTRAINT "staff_turmas_turma_id_turmas_id_fk" FOREIGN KEY ("turma_id") REFERENCES "public"."turmas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_turmas_turma_idx" ON "staff_turmas" USING btree ("turma_id");--> statement-breakpoint
-- Every account so far could do everything: it becomes the coordination's (issue 34).
UPDATE "admins" SET "role" = 'coordinator';--> statement-breakpoint
ALTER TABLE "admins" ADD CONSTRAINT "admins_role_known" CHECK ("admins"."role" IN ('coordinator', 'teacher'));--> statement-breakpoint
ALTER TABLE "admins" ADD CONSTRAINT "admins_budget_not_negative" CHECK ("admins"."weekly_budget_meritus" >= 0 AND "admins"."weekly_budget_estelecas" >= 0);--> statement-breakpoint
-- Never read: what a staff member may do follows from their role.
ALTER TABLE "admins" DROP COLUMN "permissions";