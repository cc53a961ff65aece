ALTER TABLE "jobs" ADD COLUMN "engine_model" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "engine_cost_micros" integer;