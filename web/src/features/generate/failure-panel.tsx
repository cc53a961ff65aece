import { AlertTriangle } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';

/** What the panel says for a failed job without a message of its own. */
const DEFAULT_FAILURE_MESSAGE = 'Something went wrong while processing your image.';

/** The server's messages tell of the refund themselves; the panel adds it only when one does not. */
export const mentionsRefund = (message: string): boolean => /\brefund/i.test(message);

/** 'Generation Failed': what happened, that the credit came back (every failed job is refunded), and Try Again. */
export function FailurePanel({ errorMessage, onTryAgain }: { errorMessage: string | null | undefined; onTryAgain: () => void }) {
  const message = errorMessage || DEFAULT_FAILURE_MESSAGE;
  return (
    <Card className="mt-8 border-red-200 p-6" role="alert">
      <div className="flex items-start gap-3">
        <AlertTriangle aria-hidden className="mt-0.5 size-6 shrink-0 text-red-700" />
        <div>
          <h2 className="text-lg font-semibold text-red-800">Generation Failed</h2>
          <p className="mt-1 text-stone-700">{message}</p>
          {!mentionsRefund(message) && <p className="mt-1 text-sm text-stone-600">Your credit has been refunded.</p>}
          <Button variant="outline" className="mt-4" onClick={onTryAgain}>
            Try Again
          </Button>
        </div>
      </div>
    </Card>
  );
}
