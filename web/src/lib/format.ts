/** Cents to dollars with two decimals (total spent is stored in cents). */
export const formatCents = (cents: number): string => `$${(cents / 100).toFixed(2)}`;

/** US long date, e.g. 'November 23, 2026'. */
export const formatDate = (iso: string): string =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
