import { Badge } from '../../components/ui/badge.tsx';
import { statusLabel } from '../../lib/job-format.ts';

const variants = {
  Completed: 'success',
  Failed: 'destructive',
  Processing: 'default',
  Pending: 'secondary',
} as const;

export function StatusBadge({ status }: { status: string }) {
  const label = statusLabel(status);
  return <Badge variant={variants[label as keyof typeof variants] ?? 'secondary'}>{label}</Badge>;
}
