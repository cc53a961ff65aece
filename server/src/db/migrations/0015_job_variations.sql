CREATE TABLE "job_variations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"job_id" uuid NOT NULL,
	"image_id" uuid NOT NULL,
	"index" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "job_variations" ADD CONSTRAINT "job_variations_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_variations" ADD CONSTRAINT "job_variations_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "job_variations_job_id_index_idx" ON "job_variations" USING btree ("job_id","index");--> statement-breakpoint
CREATE INDEX "job_variations_image_id_idx" ON "job_variations" USING btree ("image_id");--> statement-breakpoint
-- A job completed before variations had one result: it becomes its only variation, the chosen one.
INSERT INTO "job_variations" ("job_id", "image_id", "index", "created_at")
SELECT "id", "staged_image_id", 0, coalesce("processing_completed_at", "created_at") FROM "jobs"
WHERE "status" = 'completed' AND "staged_image_id" IS NOT NULL;
