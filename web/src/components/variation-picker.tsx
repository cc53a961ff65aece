import { Check } from 'lucide-react';
import type { Variation } from '@roomstager/contracts';
import { cn } from '../lib/cn.ts';
import { thumbnailOf } from '../lib/job-format.ts';
import { useChooseVariation } from '../lib/variations.ts';
import { toast } from './ui/use-toast.ts';

interface VariationPickerProps {
  jobId: string;
  variations: readonly Variation[];
  chosenVariationId: string | null;
  /** Names the photo in the group's label when a page shows several pickers (a listing). */
  photoName?: string;
}

/**
 * The variations of one staging as thumbnails, the chosen one marked; pressing another makes it
 * the staged photo. A staging with a single variation has nothing to choose and shows nothing.
 */
export function VariationPicker({ jobId, variations, chosenVariationId, photoName }: VariationPickerProps) {
  const choose = useChooseVariation();
  if (variations.length < 2) return null;
  const pendingId = choose.isPending ? choose.variables.variationId : null;

  return (
    <div role="group" aria-label={photoName ? `Variations of ${photoName}` : 'Variations'}>
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
                  'relative block w-full overflow-hidden rounded-lg border bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-700 disabled:cursor-wait',
                  chosen ? 'border-accent-700 ring-2 ring-accent-700' : 'border-stone-200 hover:border-stone-400',
                  pendingId === variation.id && 'animate-pulse',
                )}
              >
                <img src={thumbnailOf(variation.stagedImageUrl)} alt="" width={160} height={120} loading="lazy" decoding="async" className="aspect-[4/3] w-full object-cover" />
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
      </ul>
    </div>
  );
}
