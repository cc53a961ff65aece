import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ChevronLeft, Download, Sparkles, Trash2 } from 'lucide-react';
import { LISTING_PHOTOS_MAX, type Listing, type ListingPhoto } from '@roomstager/contracts';
import { BeforeAfterSlider, PHOTO_MAX_HEIGHT } from '../../components/before-after-slider.tsx';
import { Button, ButtonLink, buttonClasses } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { VariationPicker } from '../../components/variation-picker.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useRefreshAfterJobChange } from '../../lib/job-changes.ts';
import { roomTypeLabel } from '../../lib/job-format.ts';
import { useSession } from '../../lib/session.ts';
import { STYLE_INFO } from '../../lib/style-info.ts';
import { usePageMeta } from '../../lib/use-page-meta.ts';
import { listingZipUrl, useDeleteListing, useListing } from './api.ts';
import { ListingHeader } from './listing-header.tsx';
import { chosenStagedUrl, hasActivePhoto, photosToStage, stagingSummary } from './listing-state.ts';
import { PhotoCard } from './photo-card.tsx';
import { PhotoDrop } from './photo-drop.tsx';
import { usePhotoUploads } from './photo-uploads.ts';
import { StageDialog, stageLabel } from './stage-dialog.tsx';

const photoName = (index: number) => `Photo ${index + 1}`;

function CompareDialog({ photo, name, style, onClose, returnFocus }: { photo: ListingPhoto; name: string; style: Listing['style']; onClose: () => void; returnFocus: () => HTMLElement | null }) {
  const staged = chosenStagedUrl(photo);
  const job = photo.job;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} returnFocus={returnFocus} title={name} description={`${roomTypeLabel(photo.roomType)}, ${STYLE_INFO[style].name} style`}>
      <div className="mt-4 space-y-5">
        {staged && (
          <BeforeAfterSlider
            before={{ src: photo.imageUrl, alt: `${name}, original photo` }}
            after={{ src: staged, alt: `${name}, staged in the ${job?.style ?? style} style` }}
            maxHeight={PHOTO_MAX_HEIGHT}
            fit="contain"
          />
        )}
        {job && <VariationPicker jobId={job.id} variations={job.variations} chosenVariationId={job.chosenVariationId} moreVariations={job.moreVariations} />}
      </div>
    </Dialog>
  );
}

function DeleteListingDialog({ listing, onClose, returnFocus }: { listing: Listing; onClose: () => void; returnFocus: () => HTMLElement | null }) {
  const navigate = useNavigate();
  const remove = useDeleteListing(listing.id);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} returnFocus={returnFocus} title="Delete this listing?" className="max-w-lg">
      <p className="mt-4 text-stone-700">
        “{listing.title}” and its {listing.photos.length === 1 ? 'photo' : 'photos'} will be removed. This cannot be undone.
      </p>
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={onClose} disabled={remove.isPending} autoFocus>
          Keep it
        </Button>
        <Button
          variant="destructive"
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(undefined, {
              onSuccess: () => {
                toast({ title: 'Listing deleted', description: `“${listing.title}” was deleted.` });
                void navigate('/listings');
              },
              onError: (error) => toast({ title: 'Delete failed', description: error.message, variant: 'destructive' }),
            })
          }
        >
          <Trash2 aria-hidden className="size-4" />
          Yes, delete listing
        </Button>
      </div>
    </Dialog>
  );
}

type OpenDialog = { kind: 'stage' } | { kind: 'delete' } | { kind: 'compare'; photoId: string } | null;

function ListingView({ listing }: { listing: Listing }) {
  const { data: user } = useSession();
  const uploads = usePhotoUploads(listing.id, listing.photos.length);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const opener = useRef<HTMLElement | null>(null);
  const photosHeading = useRef<HTMLHeadingElement>(null);
  const open = (next: NonNullable<OpenDialog>, from: HTMLElement) => {
    opener.current = from;
    setDialog(next);
  };
  // Focus goes back to the control that opened a dialog, or to the photos if that went away (a
  // staged listing has no "Stage" button any more).
  const returnFocus = () => (opener.current?.isConnected && !opener.current.matches(':disabled') ? opener.current : photosHeading.current);

  // A staging that ends may have been refunded: the balance and history are read again then.
  const refreshJobs = useRefreshAfterJobChange();
  const active = hasActivePhoto(listing);
  const wasActive = useRef(active);
  useEffect(() => {
    if (wasActive.current && !active) void refreshJobs();
    wasActive.current = active;
  }, [active, refreshJobs]);

  useEffect(() => {
    document.title = `${listing.title} - Listings - RoomStager`;
  }, [listing.title]);

  const toStage = photosToStage(listing).length;
  const anyStaged = listing.photos.some((photo) => chosenStagedUrl(photo) !== null);
  const compared = dialog?.kind === 'compare' ? listing.photos.findIndex((photo) => photo.id === dialog.photoId) : -1;
  const comparedPhoto = listing.photos[compared];

  return (
    <>
      <Link to="/listings" className="inline-flex min-h-11 items-center gap-1 text-sm font-medium text-stone-700 hover:text-stone-900">
        <ChevronLeft aria-hidden className="size-4" />
        All listings
      </Link>
      <div className="mt-2">
        <ListingHeader listing={listing} />
      </div>
      <div className="mt-6 flex flex-wrap items-center gap-3">
        {toStage > 0 && (
          <Button size="lg" onClick={(e) => open({ kind: 'stage' }, e.currentTarget)}>
            <Sparkles aria-hidden className="size-5" />
            {stageLabel(toStage)}
          </Button>
        )}
        {anyStaged && (
          <a href={listingZipUrl(listing.id)} download className={buttonClasses('outline', 'lg')}>
            <Download aria-hidden className="size-5" />
            Download listing (ZIP)
          </a>
        )}
        <Button variant="ghost" className="text-red-700 hover:bg-red-50 hover:text-red-800" onClick={(e) => open({ kind: 'delete' }, e.currentTarget)}>
          <Trash2 aria-hidden className="size-4" />
          Delete listing
        </Button>
      </div>
      {listing.photos.length > 0 && (
        <p className="mt-4 text-sm text-stone-600" aria-live="polite">
          {stagingSummary(listing)}
        </p>
      )}

      <section aria-labelledby="add-photos-heading" className="mt-8">
        <h2 id="add-photos-heading" className="mb-3 text-lg font-semibold text-stone-900">
          Add photos
        </h2>
        <PhotoDrop entries={uploads.entries} onFiles={(files) => void uploads.add(files)} onClear={uploads.clear} full={listing.photos.length >= LISTING_PHOTOS_MAX} />
      </section>

      <section aria-labelledby="photos-heading" className="mt-10">
        <h2 id="photos-heading" ref={photosHeading} tabIndex={-1} className="text-lg font-semibold text-stone-900 focus:outline-none">
          Photos
        </h2>
        {listing.photos.length === 0 ? (
          <Card className="mt-4 p-8 text-center text-stone-600">No photos yet. Add the listing's photos above; each is staged as a living room unless you choose another room type.</Card>
        ) : (
          <ul className="mt-4 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {listing.photos.map((photo, i) => (
              <PhotoCard
                key={photo.id}
                listingId={listing.id}
                photo={photo}
                name={photoName(i)}
                onCompare={(from) => open({ kind: 'compare', photoId: photo.id }, from)}
                onRemoved={() => photosHeading.current?.focus()}
              />
            ))}
          </ul>
        )}
      </section>

      {dialog?.kind === 'stage' && (
        <StageDialog listingId={listing.id} style={listing.style} count={toStage} balance={user?.credits ?? 0} onClose={() => setDialog(null)} returnFocus={returnFocus} />
      )}
      {dialog?.kind === 'delete' && <DeleteListingDialog listing={listing} onClose={() => setDialog(null)} returnFocus={returnFocus} />}
      {comparedPhoto && <CompareDialog photo={comparedPhoto} name={photoName(compared)} style={listing.style} onClose={() => setDialog(null)} returnFocus={returnFocus} />}
    </>
  );
}

export default function ListingPage() {
  usePageMeta('/listings');
  const { id = '' } = useParams();
  const { data: listing, isPending, isError, error, refetch, isFetching } = useListing(id);

  if (isPending) {
    return (
      <div aria-busy="true" aria-label="Loading the listing" className="space-y-6">
        <div className="h-9 w-2/3 animate-pulse rounded bg-stone-100" />
        <div className="h-40 animate-pulse rounded-xl bg-stone-100" />
        <div className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {Array.from({ length: 3 }, (_, i) => (
            <div key={i} className="aspect-[4/3] animate-pulse rounded-xl bg-stone-100" />
          ))}
        </div>
      </div>
    );
  }
  if (isError) {
    const missing = error instanceof ApiError && (error.status === 404 || error.status === 400);
    return (
      <Card className="p-8 text-center" role="alert">
        <h1 className="text-lg font-semibold">{missing ? 'Listing not found' : 'Failed to load the listing'}</h1>
        <p className="mt-1 text-stone-600">{missing ? 'It may have been deleted.' : 'There was an issue loading this listing'}</p>
        <div className="mt-4 flex flex-wrap justify-center gap-2">
          {!missing && (
            <Button variant="outline" onClick={() => void refetch()} disabled={isFetching}>
              Try Again
            </Button>
          )}
          <ButtonLink to="/listings" variant={missing ? 'primary' : 'ghost'}>
            All listings
          </ButtonLink>
        </div>
      </Card>
    );
  }
  return <ListingView listing={listing} />;
}
