-- Credits a purchase refund took back were `purchase` rows with a negative amount; they get a type of their own.
-- The type is rebuilt rather than extended (ALTER TYPE ... ADD VALUE): a value added in a transaction cannot be used in it, and the migrations run in one.
ALTER TYPE "public"."credit_transaction_type" RENAME TO "credit_transaction_type_before_0010";--> statement-breakpoint
CREATE TYPE "public"."credit_transaction_type" AS ENUM('purchase', 'usage', 'refund', 'grant', 'purchase_refund');--> statement-breakpoint
ALTER TABLE "credit_transactions" ALTER COLUMN "type" SET DATA TYPE "public"."credit_transaction_type" USING (CASE WHEN "type" = 'purchase' AND "amount" < 0 THEN 'purchase_refund' ELSE "type"::text END)::"public"."credit_transaction_type";--> statement-breakpoint
DROP TYPE "public"."credit_transaction_type_before_0010";
