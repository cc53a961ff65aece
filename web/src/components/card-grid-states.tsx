import type { ReactNode } from 'react';
import { Button } from './ui/button.tsx';
import { Card } from './ui/card.tsx';

/** The grid of cards (gallery, listings) while it loads: `count` grey cards, announced as busy. */
export function CardGridSkeleton({ label, count }: { label: string; count: number }) {
  return (
    <ul aria-busy="true" aria-label={label} className="mt-8 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className="overflow-hidden rounded-xl border border-stone-200">
          <div className="aspect-[4/3] animate-pulse bg-stone-100" />
          <div className="space-y-2 p-4">
            <div className="h-4 w-2/3 animate-pulse rounded bg-stone-100" />
            <div className="h-3 w-1/3 animate-pulse rounded bg-stone-100" />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** A list that could not be read, with the way to read it again. */
export function LoadFailed({ title, children, onRetry, retrying }: { title: string; children: ReactNode; onRetry: () => void; retrying: boolean }) {
  return (
    <Card className="mt-8 p-8 text-center" role="alert">
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="mt-1 text-stone-600">{children}</p>
      <Button variant="outline" className="mt-4" onClick={onRetry} disabled={retrying}>
        Try Again
      </Button>
    </Card>
  );
}
