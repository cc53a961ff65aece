import { useEffect, useId, useRef, useState } from 'react';
import { Copy, ExternalLink, Link2, QrCode } from 'lucide-react';
import { sharePath, type Job, type ShareResponse } from '@roomstager/contracts';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { formatDate } from '../../lib/format.ts';
import { useCreateShare, useRevokeShare, useShareState } from './api.ts';

const linkClass =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-lg border border-stone-300 bg-white px-4 text-sm font-medium text-stone-900 hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-stone-500';

/**
 * The public link of a finished staging: a page anyone with the link can open, with the before and
 * after, the words "Virtually staged" and the unaltered original (what California's AB 723 asks a
 * listing to offer), and its QR code for flyers. Only the token's hash is kept on the server, so a
 * link is shown once, when it is made; later the panel says the link is on and can turn it off or
 * replace it. Focus follows the change: to the new link, or to the button that makes one.
 */
export function SharePanel({ job }: { job: Job }) {
  const id = useId();
  const [share, setShare] = useState<ShareResponse | null>(null);
  const state = useShareState(job.id);
  const create = useCreateShare(job.id);
  const revoke = useRevokeShare(job.id);
  const urlId = `${id}-url`;
  const urlRef = useRef<HTMLInputElement>(null);
  const createRef = useRef<HTMLButtonElement>(null);
  const [focusNext, setFocusNext] = useState<'url' | 'create' | null>(null);
  const since = share ? null : (state.data?.createdAt ?? null);

  useEffect(() => {
    if (focusNext === 'url') urlRef.current?.focus();
    if (focusNext === 'create') createRef.current?.focus();
  }, [focusNext, share, since]);

  const onCreate = () =>
    create.mutate(undefined, {
      onSuccess: (created) => {
        setShare(created);
        setFocusNext('url');
        toast({ title: 'Public link created', description: 'Anyone with the link can open the page.', variant: 'success' });
      },
      onError: (error) => toast({ title: 'Link not created', description: error.message, variant: 'destructive' }),
    });

  const onRevoke = () =>
    revoke.mutate(undefined, {
      onSuccess: () => {
        setShare(null);
        setFocusNext('create');
        toast({ title: 'Link turned off', description: 'The public page no longer opens.' });
      },
      onError: (error) => toast({ title: 'Link not turned off', description: error.message, variant: 'destructive' }),
    });

  const onCopy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: 'Link copied', description: url });
    } catch {
      toast({ title: 'Copy failed', description: 'Select the link and copy it.', variant: 'destructive' });
    }
  };

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3 rounded-xl border border-stone-200 p-4">
      <h3 id={`${id}-heading`} className="text-sm font-medium text-stone-800">
        Public link
      </h3>
      <p className="text-sm text-stone-600">
        A page anyone with the link can open: this before and after, marked “Virtually staged”, with the unaltered original to download, as California
        requires for altered listing photos. It names no one and is kept out of search engines.
      </p>
      {share ? (
        <div className="space-y-3">
          <div>
            <label htmlFor={urlId} className="text-sm font-medium text-stone-800">
              Link to the page
            </label>
            <div className="mt-1 flex flex-wrap gap-2">
              <input
                ref={urlRef}
                id={urlId}
                readOnly
                value={share.url}
                onFocus={(e) => e.currentTarget.select()}
                className="block min-h-11 min-w-0 flex-1 basis-48 rounded-lg border border-stone-300 bg-stone-50 px-3 font-mono text-xs text-stone-900 focus-visible:outline-2 focus-visible:outline-accent-700"
              />
              <Button variant="outline" onClick={() => void onCopy(share.url)}>
                <Copy aria-hidden className="size-4" />
                Copy link
              </Button>
            </div>
            <p className="mt-1 text-xs text-stone-600">Shown only now: keep the link or its QR code. A new link turns this one off.</p>
          </div>
          <div className="flex flex-wrap items-center gap-4">
            <img src={`${sharePath(share.token)}/qr.png`} alt="QR code of the link to the page" width={112} height={112} className="size-28 rounded-md border border-stone-200" />
            <div className="flex flex-wrap gap-2">
              <a href={`${sharePath(share.token)}/qr.png`} download="roomstager-qr-code.png" className={linkClass}>
                <QrCode aria-hidden className="size-4" />
                Download QR code
              </a>
              <a href={share.url} target="_blank" rel="noreferrer" className={linkClass}>
                <ExternalLink aria-hidden className="size-4" />
                Open page
              </a>
              <Button variant="ghost" className="text-red-700 hover:bg-red-50 hover:text-red-800" disabled={revoke.isPending} onClick={onRevoke}>
                Turn off link
              </Button>
            </div>
          </div>
        </div>
      ) : since ? (
        <div className="space-y-3">
          <p className="text-sm text-stone-800">
            A public link to this staging is on since {formatDate(since)}. Its address was shown once, when it was made; a new link turns it off.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button ref={createRef} variant="outline" disabled={create.isPending} onClick={onCreate}>
              <Link2 aria-hidden className="size-4" />
              {create.isPending ? 'Creating link...' : 'Create new link'}
            </Button>
            <Button variant="ghost" className="text-red-700 hover:bg-red-50 hover:text-red-800" disabled={revoke.isPending} onClick={onRevoke}>
              Turn off link
            </Button>
          </div>
        </div>
      ) : (
        <Button ref={createRef} variant="outline" disabled={create.isPending || state.isPending} onClick={onCreate}>
          <Link2 aria-hidden className="size-4" />
          {create.isPending ? 'Creating link...' : 'Create public link'}
        </Button>
      )}
    </section>
  );
}
