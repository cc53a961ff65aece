ALTER TABLE "jobs" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "idempotency_fingerprint" text;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_user_id_idempotency_key_idx" ON "jobs" USING btree ("user_id","idempotency_key") WHERE "jobs"."idempotency_key" is not null;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_idempotency_key_with_fingerprint" CHECK (("jobs"."idempotency_key" is null) = ("jobs"."idempotency_fingerprint" is null));