CREATE TABLE "archive_favourites" (
	"admin_id" uuid NOT NULL,
	"image_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "archive_favourites_admin_id_image_id_pk" PRIMARY KEY("admin_id","image_id")
);
--> statement-breakpoint
CREATE TABLE "archive_images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_key" text NOT NULL,
	"content_hash" text NOT NULL,
	"file_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"kind" text NOT NULL,
	"file_size" integer NOT NULL,
	"width" integer,
	"height" integer,
	"has_variants" boolean DEFAULT false NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"category" text DEFAULT 'galeria' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"album_id" text,
	"album_name" text,
	"access_level" text DEFAULT 'public' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"usage_count" integer DEFAULT 0 NOT NULL,
	"download_count" integer DEFAULT 0 NOT NULL,
	"last_accessed_at" timestamp with time zone,
	"uploaded_by" text DEFAULT 'unknown' NOT NULL,
	"uploader_name" text,
	"uploader_email" text,
	"share_token" text,
	"search_text" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "archive_images_category_known" CHECK ("archive_images"."category" IN ('perfil', 'banner', 'icone', 'ilustracao', 'documento', 'biblioteca', 'galeria', 'outros')),
	CONSTRAINT "archive_images_access_level_known" CHECK ("archive_images"."access_level" IN ('public', 'restricted', 'private', 'admin')),
	CONSTRAINT "archive_images_kind_known" CHECK ("archive_images"."kind" IN ('image', 'video', 'audio', 'document')),
	CONSTRAINT "archive_images_counters_nonnegative" CHECK ("archive_images"."usage_count" >= 0 AND "archive_images"."download_count" >= 0 AND "archive_images"."file_size" > 0)
);
--> statement-breakpoint
ALTER TABLE "archive_favourites" ADD CONSTRAINT "archive_favourites_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "archive_favourites" ADD CONSTRAINT "archive_favourites_image_id_archive_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."archive_images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "archive_favourites_image_idx" ON "archive_favourites" USING btree ("image_id");--> statement-breakpoint
CREATE UNIQUE INDEX "archive_images_file_key_key" ON "archive_images" USING btree ("file_key");--> statement-breakpoint
CREATE UNIQUE INDEX "archive_images_content_hash_key" ON "archive_images" USING btree ("content_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "archive_images_share_token_key" ON "archive_images" USING btree ("share_token");--> statement-breakpoint
CREATE INDEX "archive_images_created_idx" ON "archive_images" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "archive_images_name_idx" ON "archive_images" USING btree ("file_name","id");--> statement-breakpoint
CREATE INDEX "archive_images_size_idx" ON "archive_images" USING btree ("file_size","id");--> statement-breakpoint
CREATE INDEX "archive_images_usage_idx" ON "archive_images" USING btree ("usage_count","id");--> statement-breakpoint
CREATE INDEX "archive_images_downloads_idx" ON "archive_images" USING btree ("download_count","id");--> statement-breakpoint
CREATE INDEX "archive_images_category_idx" ON "archive_images" USING btree ("category","created_at");--> statement-breakpoint
CREATE INDEX "archive_images_uploader_idx" ON "archive_images" USING btree ("uploaded_by");