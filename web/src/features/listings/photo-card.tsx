import { useState } from 'react';
import { Link } from 'react-router';
import { Maximize2, RefreshCw, Trash2 } from 'lucide-react';
import { ROOM_TYPES, ROOM_TYPE_LABELS, type ListingPhoto, type RoomType } from '@roomstager/contracts';
import { PreviewImage } from '../../components/preview-image.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { fieldClass } from '../../components/ui/field.ts';
import { toast } from '../../components/ui/use-toast.ts';
import { VariationPicker } from '../../components/variation-picker.tsx';
import { cn } from '../../lib/cn.ts';
import { withIdempotencyKey } from '../../lib/job-changes.ts';
import { thumbnailOf } from '../../lib/job-format.ts';
import { useRemovePhoto, useStagePhoto, useUpdatePhotoRoomType } from './api.ts';
import { chosenStagedUrl, creditShortfall, credits, isPhotoActive } from './listing-state.ts';

interface PhotoCardProps {
  listingId: string;
  photo: ListingPhoto;
  /** "Photo 2": how the page names it to a screen reader, by its place in the listing. */
  name: string;
  onCompare: (opener: HTMLElement) => void;
  /** Called once the photo is removed: its card goes away, so the page decides where focus goes. */
  onRemoved: () => void;
}

/** One photo of a listing: its picture (staged once done), state, room type, variations and actions. */
export function PhotoCard({ listingId, photo, name, onCompare, onRemoved }: PhotoCardProps) {
  const [confirmRemove, setConfirmRemove] = useState(false);
  const updateRoomType = useUpdatePhotoRoomType(listingId);
  const remove = useRemovePhoto(listingId);
  const stage = useStagePhoto(listingId);
  const job = photo.job;
  const active = isPhotoActive(photo);
  const staged = chosenStagedUrl(photo);
  const busy = remove.isPending || stage.isPending;
  const roomTypeId = `room-type-${photo.id}`;

  const stageAgain = () =>
    stage.mutate(withIdempotencyKey({ photoId: photo.id }), {
      onSuccess: () => toast({ title: 'Staging started', description: `${name} is being staged again. It costs 1 credit, refunded if it fails.` }),
      onError: (error) => {
        const short = creditShortfall(error);
        toast(
          short
            ? { title: 'Insufficient credits', description: `You need ${credits(short.missing)} more to stage this photo again.`, variant: 'destructive' }
            : { title: 'Staging failed', description: error.message, variant: 'destructive' },
        );
      },
    });

  return (
    <li className="flex flex-col overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm">
      {staged ? (
        <button
          type="button"
          className="group relative block focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-700"
          onClick={(e) => onCompare(e.currentTarget)}
          aria-label={`Compare ${name} before and after staging`}
        >
          <PreviewImage src={thumbnailOf(staged)} alt="" />
          <span className="absolute right-2 bottom-2 inline-flex items-center gap-1 rounded-full bg-white/90 px-2.5 py-1 text-xs font-medium text-stone-800 shadow-sm group-hover:bg-white">
            <Maximize2 aria-hidden className="size-3.5" />
            Before / after
          </span>
        </button>
      ) : (
        <PreviewImage src={thumbnailOf(photo.imageUrl)} alt={`${name}, original photo`} />
      )}
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex items-center justify-between gap-2">
          <h3 id={`${photo.id}-name`} className="font-medium text-stone-900">
            {name}
          </h3>
          {job ? <StatusBadge status={job.status} /> : <Badge variant="secondary">Not staged</Badge>}
        </div>
        {job?.status === 'failed' && (
          <p className="text-sm text-red-700">
            {job.errorMessage || 'Something went wrong while processing your image.'}
            {job.creditsUsed === 0 && <span className="block text-stone-600">Credit refunded.</span>}
          </p>
        )}
        <div>
          <label htmlFor={roomTypeId} className="text-sm font-medium text-stone-800">
            Room type<span className="sr-only"> of {name}</span>
          </label>
          <select
            id={roomTypeId}
            className={cn('mt-1', fieldClass)}
            value={photo.roomType}
            disabled={active || updateRoomType.isPending}
            aria-describedby={active ? `${roomTypeId}-note` : undefined}
            onChange={(e) =>
              updateRoomType.mutate(
                { photoId: photo.id, roomType: e.target.value as RoomType },
                { onError: (error) => toast({ title: 'Update failed', description: error.message, variant: 'destructive' }) },
              )
            }
          >
            {ROOM_TYPES.map((r) => (
              <option key={r} value={r}>
                {ROOM_TYPE_LABELS[r]}
              </option>
            ))}
          </select>
          {active && (
            <p id={`${roomTypeId}-note`} className="mt-1 text-xs text-stone-600">
              Being staged; change it after to stage again as another room.
            </p>
          )}
        </div>
        {job?.status === 'completed' && <VariationPicker jobId={job.id} variations={job.variations} chosenVariationId={job.chosenVariationId} moreVariations={job.moreVariations} photoName={name} />}
        <div className="mt-auto flex flex-wrap items-center gap-2 pt-1">
          {job && !active && (
            <Button variant="outline" size="sm" disabled={busy} onClick={stageAgain} aria-describedby={`${photo.id}-name`}>
              <RefreshCw aria-hidden className="size-4" />
              Stage again (1 credit)
            </Button>
          )}
          {confirmRemove ? (
            <div role="group" aria-label={`Confirm removing ${name}`} className="flex flex-wrap items-center gap-2 rounded-lg bg-red-50 p-2">
              <span className="text-sm text-red-800">Remove this photo?</span>
              <Button
                variant="destructive"
                size="sm"
                autoFocus
                disabled={busy}
                onClick={() =>
                  remove.mutate(photo.id, {
                    onSuccess: () => {
                      toast({ title: 'Photo removed', description: `${name} was removed from the listing.` });
                      onRemoved();
                    },
                    onError: (error) => toast({ title: 'Remove failed', description: error.message, variant: 'destructive' }),
                  })
                }
              >
                Yes, remove
              </Button>
              <Button variant="outline" size="sm" onClick={() => setConfirmRemove(false)}>
                Keep it
              </Button>
            </div>
          ) : (
            <Button variant="ghost" size="sm" className="text-red-700 hover:bg-red-50 hover:text-red-800" disabled={busy} onClick={() => setConfirmRemove(true)} aria-label={`Remove ${name}`}>
              <Trash2 aria-hidden className="size-4" />
              Remove
            </Button>
          )}
        </div>
        {stage.error && creditShortfall(stage.error) && (
          <p className="text-sm text-stone-600">
            <Link to="/pricing" className="font-medium text-accent-700 underline">
              Buy credits
            </Link>
          </p>
        )}
      </div>
    </li>
  );
}
