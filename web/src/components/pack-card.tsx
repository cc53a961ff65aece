import type { ReactNode } from 'react';
import { Check } from 'lucide-react';
import { CREDIT_PACKS, type CreditPack } from '@roomstager/contracts';
import { cn } from '../lib/cn.ts';
import { Card } from './ui/card.tsx';

/** A pack's features as a checked list (pricing, landing, checkout). */
export function PackFeatures({ pack, className }: { pack: CreditPack; className?: string }) {
  return (
    <ul className={cn('space-y-2 text-sm text-stone-700', className)}>
      {pack.features.map((f) => (
        <li key={f} className="flex items-start gap-2">
          <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-accent-700" />
          {f}
        </li>
      ))}
    </ul>
  );
}

interface PackCardProps {
  pack: CreditPack;
  /** The card title's level in the page outline. */
  heading: 'h2' | 'h3';
  price: ReactNode;
  action: ReactNode;
}

/** One plan card: 'Most Popular' on Professional, the price, the features and one action. */
function PackCard({ pack, heading: Heading, price, action }: PackCardProps) {
  return (
    <Card className={pack.popular ? 'relative flex flex-col border-accent-700 p-6 ring-2 ring-accent-700' : 'flex flex-col p-6'}>
      {pack.popular && (
        <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-accent-700 px-3 py-1 text-xs font-semibold text-white">
          Most Popular
        </span>
      )}
      <Heading className="text-xl font-semibold">{pack.name}</Heading>
      {price}
      <PackFeatures pack={pack} className="mt-6 flex-1" />
      {action}
    </Card>
  );
}

interface PackGridProps {
  /** The card titles' level in the page outline. */
  heading: 'h2' | 'h3';
  /** How the page shows a pack's price, and what choosing it does there. */
  price: (pack: CreditPack) => ReactNode;
  action: (pack: CreditPack) => ReactNode;
}

/** Every pack's card side by side (landing, pricing). */
export function PackGrid({ heading, price, action }: PackGridProps) {
  return (
    <div className="mt-12 grid gap-6 md:grid-cols-3">
      {CREDIT_PACKS.map((pack) => (
        <PackCard key={pack.id} pack={pack} heading={heading} price={price(pack)} action={action(pack)} />
      ))}
    </div>
  );
}
