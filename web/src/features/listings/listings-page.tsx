import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Building2, ImageOff, Plus } from 'lucide-react';
import { LISTING_TITLE_MAX_LENGTH, type ListingSummary, type Style } from '@roomstager/contracts';
import { CardGridSkeleton, LoadFailed } from '../../components/card-grid-states.tsx';
import { StyleSelect } from '../../components/style-select.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { fieldClass } from '../../components/ui/field.ts';
import { toast } from '../../components/ui/use-toast.ts';
import { cn } from '../../lib/cn.ts';
import { STYLE_INFO } from '../../lib/style-info.ts';
import { usePageMeta } from '../../lib/use-page-meta.ts';
import { useCreateListing, useListings } from './api.ts';
import { photoCountsText } from './listing-state.ts';

function Cover({ url }: { url: string | null }) {
  const [failed, setFailed] = useState(false);
  if (!url || failed) {
    return (
      <span className="flex aspect-[4/3] flex-col items-center justify-center gap-2 bg-stone-100 text-sm text-stone-600">
        {url ? <ImageOff aria-hidden className="size-6" /> : <Building2 aria-hidden className="size-6" />}
        {url ? 'Image preview unavailable' : 'No photos yet'}
      </span>
    );
  }
  return (
    <img
      src={url}
      alt=""
      width={400}
      height={300}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
      className="aspect-[4/3] w-full bg-stone-100 object-cover"
    />
  );
}

function ListingCard({ listing }: { listing: ListingSummary }) {
  return (
    <li>
      <Link
        to={`/listings/${listing.id}`}
        className="group block overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm transition-shadow hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-700"
      >
        <Cover url={listing.coverUrl} />
        <span className="block p-4">
          <span className="block truncate font-medium text-stone-900">{listing.title}</span>
          <span className="mt-0.5 block text-sm text-stone-600">
            {STYLE_INFO[listing.style].name} style · {photoCountsText(listing)}
          </span>
        </span>
      </Link>
    </li>
  );
}

/** The form of a new listing: a title (the address, typically) and the style every photo is staged in. */
function NewListingDialog({ onClose, returnFocus }: { onClose: () => void; returnFocus: () => HTMLElement | null }) {
  const navigate = useNavigate();
  const create = useCreateListing();
  const [title, setTitle] = useState('');
  const [style, setStyle] = useState<Style>('modern');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!title.trim()) {
      setProblem('Enter a title, such as the address');
      return;
    }
    create.mutate(
      { title: title.trim(), style },
      {
        onSuccess: ({ id }) => {
          toast({ title: 'Listing created', description: 'Add its photos to stage them.', variant: 'success' });
          void navigate(`/listings/${id}`);
        },
        onError: (error) => setProblem(error.message),
      },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} returnFocus={returnFocus} title="New listing" description="One property: its photos are staged together in one style." className="max-w-lg">
      <form onSubmit={submit} noValidate className="mt-5 space-y-4">
        <div>
          <label htmlFor="listing-title" className="text-sm font-medium text-stone-800">
            Title
          </label>
          <input
            id="listing-title"
            className={cn('mt-1', fieldClass)}
            value={title}
            onChange={(e) => {
              setTitle(e.target.value);
              setProblem(null);
            }}
            maxLength={LISTING_TITLE_MAX_LENGTH}
            placeholder="e.g. 12 Oak Street"
            autoFocus
            required
            aria-invalid={problem !== null}
            aria-describedby={problem ? 'listing-title-problem' : undefined}
            disabled={create.isPending}
          />
          {problem && (
            <p id="listing-title-problem" role="alert" className="mt-1 text-sm text-red-700">
              {problem}
            </p>
          )}
        </div>
        <div>
          <label htmlFor="listing-style" className="text-sm font-medium text-stone-800">
            Style
          </label>
          <StyleSelect id="listing-style" className="mt-1" value={style} onChange={setStyle} disabled={create.isPending} describe />
        </div>
        <div className="flex flex-wrap justify-end gap-2 pt-2">
          <Button variant="outline" onClick={onClose} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Creating...' : 'Create listing'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export default function ListingsPage() {
  usePageMeta('/listings');
  const { data, isPending, isError, refetch, isFetching } = useListings();
  const [creating, setCreating] = useState(false);
  // The header's button or the empty state's: focus goes back to the one pressed.
  const opener = useRef<HTMLElement | null>(null);
  const openFrom = (button: HTMLElement) => {
    opener.current = button;
    setCreating(true);
  };

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Listings</h1>
          <p className="mt-2 text-stone-600">Stage every photo of a property together, in one style with the same furniture throughout.</p>
        </div>
        <Button onClick={(e) => openFrom(e.currentTarget)}>
          <Plus aria-hidden className="size-4" />
          New listing
        </Button>
      </div>

      {isPending ? (
        <CardGridSkeleton label="Loading your listings" count={3} />
      ) : isError ? (
        <LoadFailed title="Failed to load listings" onRetry={() => void refetch()} retrying={isFetching}>
          There was an issue loading your listings
        </LoadFailed>
      ) : data.length === 0 ? (
        <Card className="mt-8 p-10 text-center">
          <h2 className="text-lg font-semibold">No listings yet</h2>
          <p className="mt-1 text-stone-600">Create a listing, drop all its photos at once and stage them in one click.</p>
          <Button className="mt-6" onClick={(e) => openFrom(e.currentTarget)}>
            Create your first listing
          </Button>
        </Card>
      ) : (
        <ul className="mt-8 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {data.map((listing) => (
            <ListingCard key={listing.id} listing={listing} />
          ))}
        </ul>
      )}
      {creating && <NewListingDialog onClose={() => setCreating(false)} returnFocus={() => (opener.current?.isConnected ? opener.current : null)} />}
    </>
  );
}
