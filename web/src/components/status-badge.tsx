import { statusLabel } from '../lib/job-format.ts';
import { Badge } from './ui/badge.tsx';

const variants = {
  Completed: 'success',
  Failed: 'destructive',
  Processing: 'default',
  Pending: 'secondary',
} as const;

/** A job's status as the gallery and the listings show it. */
export function StatusBadge({ status }: { status: string }) {
  const label = statusLabel(status);
  return <Badge variant={variants[label as keyof typeof variants] ?? 'secondary'}>{label}</Badge>;
}
