-- The archive's search box matches anywhere in the folded text (LIKE '%…%'): a trigram index finds those rows
-- without reading every record. pg_trgm ships with PostgreSQL (contrib) and is trusted: the database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "archive_images_search_idx" ON "archive_images" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);
