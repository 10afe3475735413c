DROP INDEX "archive_images_name_idx";--> statement-breakpoint
CREATE INDEX "archive_images_name_idx" ON "archive_images" USING btree ("file_name" COLLATE "und-x-icu","id");