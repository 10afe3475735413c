CREATE TABLE "password_reset_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"ended_at" timestamp with time zone DEFAULT now() NOT NULL
);
