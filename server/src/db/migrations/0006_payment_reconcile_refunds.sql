ALTER TABLE "payments" ADD COLUMN "refunded_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reconcile_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "next_check_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "payments_reconcile_idx" ON "payments" USING btree ("next_check_at","created_at") WHERE "payments"."status" in ('created', 'pending');--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refunded_within_amount" CHECK ("payments"."refunded_cents" >= 0 and "payments"."refunded_cents" <= "payments"."amount_cents");