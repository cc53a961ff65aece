import { PayPalApiError, type PayPalCapture, type PayPalOrder } from '../../integrations/paypal.ts';

/** The structured logger the routes pass in (pino's shape); security events carry `event: 'security.*'`. */
export interface EventLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export function capturesOf(order: PayPalOrder): PayPalCapture[] {
  return order.purchase_units?.flatMap((u) => u.payments?.captures ?? []) ?? [];
}

/** The capture id in a refund's `up` link. */
export function captureIdOf(links: ReadonlyArray<{ rel: string; href: string }> | undefined): string | undefined {
  const up = links?.find((l) => l.rel === 'up')?.href;
  return /\/captures\/([^/?#]+)$/.exec(up ?? '')?.[1];
}

/** What the log keeps of a failed PayPal call (never a secret). */
export function describeError(err: unknown): Record<string, unknown> {
  if (err instanceof PayPalApiError) return { status: err.status, name: err.errorName, issue: err.issue, debugId: err.debugId, message: err.message };
  return { message: err instanceof Error ? err.message : String(err) };
}
