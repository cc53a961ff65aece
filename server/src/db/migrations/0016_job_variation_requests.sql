ALTER TABLE "jobs" ADD COLUMN "variation_of" uuid;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "charged_per_image" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_variation_of_jobs_id_fk" FOREIGN KEY ("variation_of") REFERENCES "public"."jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_variation_of_idx" ON "jobs" USING btree ("variation_of") WHERE "jobs"."variation_of" is not null;--> statement-breakpoint
-- Jobs staged before the column by a remote provider (each paid per image; the names of config.ts's REMOTE_ENGINE_KEYS).
UPDATE "jobs" SET "charged_per_image" = true WHERE "engine" IN ('openai', 'gemini', 'replicate');
