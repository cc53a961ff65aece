import type { Job } from '@roomstager/contracts';
import { ShieldCheck } from 'lucide-react';

/**
 * "Room unchanged" for a generative staging that passed the structure lock: everything but the
 * added furniture is the original photo's own pixels, as MLS rules on staged photos require.
 */
export function RoomUnchanged({ job, className }: { job: Pick<Job, 'status' | 'structure'>; className?: string }) {
  if (job.status !== 'completed' || job.structure?.verdict !== 'faithful') return null;
  return (
    <p className={`flex items-center gap-1.5 text-sm font-medium text-accent-800 ${className ?? ''}`}>
      <ShieldCheck aria-hidden className="size-4" />
      <span>Room unchanged</span>
      <span className="font-normal text-stone-600">(walls, windows, doors, floor and ceiling are your photo's own)</span>
    </p>
  );
}
