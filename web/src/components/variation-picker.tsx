import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Check, Loader2, Plus } from 'lucide-react';
import type { MoreVariations, Variation } from '@roomstager/contracts';
import { ApiError } from '../lib/api-client.ts';
import { cn } from '../lib/cn.ts';
import { useRefreshAfterJobChange, withIdempotencyKey } from '../lib/job-changes.ts';
import { thumbnailOf } from '../lib/job-format.ts';
import { useChooseVariation, useRequestVariation } from '../lib/variations.ts';
import { Button } from './ui/button.tsx';
import { toast } from './ui/use-toast.ts';

interface VariationPickerProps {
  jobId: string;
  variations: readonly Variation[];
  chosenVariationId: string | null;
  /** Whether one more can be bought (a staging by an engine paid per image), and those being made or refunded. */
  moreVariations: MoreVariations;
  /** Names the photo in the group's label when a page shows several pickers (a listing). */
  photoName?: string;
}

const tileClass = 'relative block w-full overflow-hidden rounded-lg border';

/**
 * The variations of one staging as thumbnails, the chosen one marked; pressing another makes it
 * the staged photo. A staging by an engine paid per image also offers "Another variation (1
 * credit)": each one asked for shows as a tile until it is made (the lists poll meanwhile), and one
 * that fails is said to be refunded. A staging with a single variation and nothing more to offer
 * shows nothing.
 */
export function VariationPicker({ jobId, variations, chosenVariationId, moreVariations, photoName }: VariationPickerProps) {
  const choose = useChooseVariation();
  const request = useRequestVariation();
  const refresh = useRefreshAfterJobChange();
  const group = useRef<HTMLDivElement>(null);
  const [noCredits, setNoCredits] = useState(false);
  // Refunds the user sees happen: those counted when the picker appeared are old news.
  const [refundedSeen] = useState(moreVariations.refunded);
  const pending = moreVariations.pending;
  const wasPending = useRef(pending);
  useEffect(() => {
    // A variation made or refunded: the balance and history are read again.
    if (pending < wasPending.current) void refresh();
    wasPending.current = pending;
  }, [pending, refresh]);

  const offered = moreVariations.allowed || pending > 0;
  if (variations.length < 2 && !offered) return null;
  const choosingId = choose.isPending ? choose.variables.variationId : null;
  const refundedNow = moreVariations.refunded > refundedSeen;
  const label = photoName ? `Variations of ${photoName}` : 'Variations';

  const askForAnother = () => {
    setNoCredits(false);
    request.mutate(withIdempotencyKey({ jobId }), {
      onSuccess: (job) => {
        toast({ title: 'Making another variation', description: 'One credit was used. It appears here when it is ready.', variant: 'success' });
        // The button goes at the limit: focus stays in the picker rather than on the page.
        if (!job.moreVariations.allowed) group.current?.focus();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 402) setNoCredits(true);
        else toast({ title: 'Another variation failed', description: error.message, variant: 'destructive' });
      },
    });
  };

  return (
    <div role="group" aria-label={label} ref={group} tabIndex={-1} className="focus-visible:outline-none">
      <p className="text-sm font-medium text-stone-800" aria-hidden>
        Variations
      </p>
      <ul className="mt-2 grid grid-cols-3 gap-2">
        {variations.map((variation, i) => {
          const chosen = variation.id === chosenVariationId;
          return (
            <li key={variation.id}>
              <button
                type="button"
                aria-pressed={chosen}
                aria-label={`Variation ${i + 1}`}
                disabled={choose.isPending}
                onClick={() => {
                  if (chosen) return;
                  choose.mutate(
                    { jobId, variationId: variation.id },
                    {
                      onSuccess: () =>
                        toast({ title: 'Variation chosen', description: `Variation ${i + 1} is now the staged photo.`, variant: 'success' }),
                      onError: (error) => toast({ title: 'Choice failed', description: error.message, variant: 'destructive' }),
                    },
                  );
                }}
                className={cn(
                  tileClass,
                  'bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-700 disabled:cursor-wait',
                  chosen ? 'border-accent-700 ring-2 ring-accent-700' : 'border-stone-200 hover:border-stone-400',
                  choosingId === variation.id && 'animate-pulse',
                )}
              >
                <img
                  src={thumbnailOf(variation.stagedImageUrl)}
                  alt={`Variation ${i + 1}`}
                  width={160}
                  height={120}
                  loading="lazy"
                  decoding="async"
                  className="aspect-[4/3] w-full object-cover"
                />
                {chosen && (
                  <span className="absolute top-1 left-1 inline-flex items-center gap-1 rounded-full bg-accent-700 px-2 py-0.5 text-xs font-semibold text-white">
                    <Check aria-hidden className="size-3" />
                    Chosen
                  </span>
                )}
              </button>
            </li>
          );
        })}
        {Array.from({ length: pending }, (_, i) => (
          <li key={`pending-${i}`}>
            <div className={cn(tileClass, 'flex aspect-[4/3] flex-col items-center justify-center gap-1 border-dashed border-stone-300 bg-stone-50 p-2 text-center text-xs text-stone-700')}>
              <Loader2 aria-hidden className="size-4 animate-spin motion-reduce:animate-none" />
              Making another variation…
            </div>
          </li>
        ))}
      </ul>
      <div aria-live="polite" className="mt-2 space-y-2 text-sm">
        {refundedNow && <p className="text-stone-700">A variation could not be made. Its credit was refunded.</p>}
        {noCredits && (
          <p className="text-red-800">
            You have no credits left for another variation.{' '}
            <Link to="/pricing" className="font-medium underline underline-offset-2">
              Buy credits
            </Link>
          </p>
        )}
      </div>
      {moreVariations.allowed && (
        <Button variant="outline" size="sm" className="mt-2" disabled={request.isPending} onClick={askForAnother}>
          {request.isPending ? <Loader2 aria-hidden className="size-4 animate-spin motion-reduce:animate-none" /> : <Plus aria-hidden className="size-4" />}
          Another variation (1 credit)
        </Button>
      )}
    </div>
  );
}
