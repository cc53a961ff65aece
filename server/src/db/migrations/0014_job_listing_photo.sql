ALTER TABLE "jobs" ADD COLUMN "listing_photo_id" uuid;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "look" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_listing_photo_id_listing_photos_id_fk" FOREIGN KEY ("listing_photo_id") REFERENCES "public"."listing_photos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_listing_photo_id_idx" ON "jobs" USING btree ("listing_photo_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "jobs"."listing_photo_id" is not null;