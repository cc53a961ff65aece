import { Link } from 'react-router';
import { Sparkles } from 'lucide-react';
import type { Style } from '@roomstager/contracts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { STYLE_INFO } from '../../lib/style-info.ts';
import { useStageListing } from './api.ts';
import { creditShortfall, credits, type CreditShortfall } from './listing-state.ts';

/** "Stage 3 photos": the words of the button and of the dialog it opens. */
export const stageLabel = (count: number) => `Stage ${count} ${count === 1 ? 'photo' : 'photos'}`;

function Shortfall({ short }: { short: CreditShortfall }) {
  return (
    <Alert variant="destructive">
      <p className="font-semibold">Not enough credits</p>
      <p className="mt-1">
        Staging these photos needs {credits(short.needed)} and you have {credits(short.balance)}: {credits(short.missing)} missing. Nothing was charged.
      </p>
      <Link to="/pricing" className="mt-2 inline-block font-medium text-red-900 underline">
        Buy credits
      </Link>
    </Alert>
  );
}

interface StageDialogProps {
  listingId: string;
  style: Style;
  count: number;
  balance: number;
  onClose: () => void;
  returnFocus: () => HTMLElement | null;
}

/** The confirmation before staging a listing: what it costs against the balance, and the server's answer when short. */
export function StageDialog({ listingId, style, count, balance, onClose, returnFocus }: StageDialogProps) {
  const stage = useStageListing(listingId);
  const short = creditShortfall(stage.error);

  const confirm = () =>
    stage.mutate(undefined, {
      onSuccess: ({ creditsUsed, remainingCredits }) => {
        toast({ title: 'Staging started', description: `${credits(creditsUsed)} used, ${credits(remainingCredits)} left. Photos are refunded if they fail.` });
        onClose();
      },
    });

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} returnFocus={returnFocus} title={`${stageLabel(count)}?`} className="max-w-lg">
      <div className="mt-4 space-y-4">
        <p className="text-stone-700">
          Each photo is staged in the {STYLE_INFO[style].name} style, with the same furniture throughout the listing, for 1 credit. This costs{' '}
          <strong>{credits(count)}</strong>; you have <strong>{credits(balance)}</strong>.
        </p>
        {short ? (
          <Shortfall short={short} />
        ) : (
          stage.error && (
            <Alert variant="destructive">
              <p className="font-semibold">Staging failed</p>
              <p className="mt-1">{stage.error.message}</p>
            </Alert>
          )
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={onClose} disabled={stage.isPending}>
            Cancel
          </Button>
          <Button onClick={confirm} disabled={stage.isPending} autoFocus>
            <Sparkles aria-hidden className="size-4" />
            {stage.isPending ? 'Starting...' : `${stageLabel(count)} (${credits(count)})`}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
