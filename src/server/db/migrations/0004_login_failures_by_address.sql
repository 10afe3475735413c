DROP TABLE "login_locks" CASCADE;--> statement-breakpoint
ALTER TABLE "login_failures" ADD COLUMN "pending" boolean DEFAULT false NOT NULL;