import { useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { Download, Pencil, RefreshCw, RotateCcw, Trash2 } from 'lucide-react';
import { originalFileName, type Job, type Style } from '@roomstager/contracts';
import { BeforeAfterSlider, PHOTO_MAX_HEIGHT } from '../../components/before-after-slider.tsx';
import { RoomUnchanged } from '../../components/room-unchanged.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { StyleSelect } from '../../components/style-select.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { fieldClass } from '../../components/ui/field.ts';
import { toast } from '../../components/ui/use-toast.ts';
import { VariationPicker } from '../../components/variation-picker.tsx';
import { formatDate } from '../../lib/format.ts';
import { withIdempotencyKey } from '../../lib/job-changes.ts';
import { creditsUsedLabel, isInProgress, jobTitle, processingTime, roomTypeLabel, statusLabel } from '../../lib/job-format.ts';
import { useSession } from '../../lib/session.ts';
import { STYLE_INFO } from '../../lib/style-info.ts';
import { useDeleteJob, useRegenerateJob, useRetryJob, useUpdateLabel } from './api.ts';
import { downloadImage } from './download.ts';
import { DownloadOptions } from './download-options.tsx';
import { SharePanel } from './share-panel.tsx';

function Comparison({ job }: { job: Job }) {
  if (job.stagedImageUrl) {
    return (
      <BeforeAfterSlider
        before={{ src: job.originalImageUrl, alt: `${jobTitle(job)}, original photo` }}
        after={{ src: job.stagedImageUrl, alt: `${jobTitle(job)}, staged in the ${job.style} style` }}
        maxHeight={PHOTO_MAX_HEIGHT}
        fit="contain"
      />
    );
  }
  return <OriginalOnly job={job} />;
}

function OriginalOnly({ job }: { job: Job }) {
  const [failed, setFailed] = useState(false);
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      {failed ? (
        <div className="flex aspect-[4/3] items-center justify-center rounded-xl bg-stone-100 p-4 text-center text-sm text-stone-600">
          Image not available. The photo could not be loaded; try reloading the page.
        </div>
      ) : (
        <img
          src={job.originalImageUrl}
          alt={`${jobTitle(job)}, original photo`}
          onError={() => setFailed(true)}
          className="mx-auto w-auto max-w-full rounded-xl bg-stone-100"
          style={{ maxHeight: PHOTO_MAX_HEIGHT }}
        />
      )}
      <div className="flex min-h-40 flex-col items-center justify-center rounded-xl bg-stone-100 p-4 text-center text-sm text-stone-600">
        <p className="font-medium text-stone-800">Staged image not available</p>
        <p className="mt-1">{isInProgress(job) ? 'This photo is still being staged.' : job.errorMessage || 'Something went wrong while processing your image.'}</p>
      </div>
    </div>
  );
}

function LabelEditor({ job, onEditingChange }: { job: Job; onEditingChange: (editing: boolean) => void }) {
  const [editing, setEditingState] = useState(false);
  const [value, setValue] = useState('');
  const update = useUpdateLabel();
  const setEditing = (next: boolean) => {
    setEditingState(next);
    onEditingChange(next);
  };

  const save = () => {
    const next = value.trim();
    if (next === (job.userLabel ?? '')) {
      setEditing(false);
      return;
    }
    update.mutate(
      { id: job.id, userLabel: next },
      {
        onSuccess: () => {
          toast({ title: 'Label updated', description: 'The image label has been updated successfully.', variant: 'success' });
          setEditing(false);
        },
        onError: (error) => toast({ title: 'Update failed', description: error.message, variant: 'destructive' }),
      },
    );
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      save();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      setEditing(false);
    }
  };

  if (!editing) {
    return (
      <div className="flex items-center gap-2">
        <p className="font-medium text-stone-900">{jobTitle(job)}</p>
        <Button
          variant="ghost"
          size="sm"
          aria-label="Edit label"
          onClick={() => {
            setValue(job.userLabel ?? '');
            setEditing(true);
          }}
        >
          <Pencil aria-hidden className="size-4" />
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor={`label-${job.id}`} className="sr-only">
        Label
      </label>
      <input
        id={`label-${job.id}`}
        className={`${fieldClass} max-w-sm`}
        value={value}
        maxLength={100}
        autoFocus
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={onKeyDown}
        disabled={update.isPending}
      />
      <Button size="sm" onClick={save} disabled={update.isPending}>
        Save
      </Button>
      <Button size="sm" variant="outline" onClick={() => setEditing(false)} disabled={update.isPending}>
        Cancel
      </Button>
    </div>
  );
}

interface JobDialogProps {
  /** The gallery keeps it current: the list it comes from is polled while the job is in progress. */
  job: Job;
  onClose: () => void;
  /** A Regenerate created this job: the dialog shows it from now on. */
  onRegenerated: (job: Job) => void;
  returnFocus: () => HTMLElement | null | undefined;
}

/** The detail dialog of a gallery card: comparison, label, details, downloads and actions. */
export function JobDialog({ job, onClose, onRegenerated, returnFocus }: JobDialogProps) {
  const { data: user } = useSession();
  const noCredits = (user?.credits ?? 0) < 1;
  const [editingLabel, setEditingLabel] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [regenStyle, setRegenStyle] = useState<Style>(job.style);
  const remove = useDeleteJob();
  const regenerate = useRegenerateJob();
  const retry = useRetryJob();
  const busy = remove.isPending || regenerate.isPending || retry.isPending;
  const creditsNoteId = `credits-note-${job.id}`;

  const onError = (title: string) => (error: Error) => toast({ title, description: error.message, variant: 'destructive' });

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      returnFocus={returnFocus}
      title={jobTitle(job)}
      description={`${STYLE_INFO[job.style].name} style, ${roomTypeLabel(job.roomType).toLowerCase()}`}
      onEscapeKeyDown={(e) => {
        if (editingLabel) e.preventDefault();
      }}
    >
      <div className="mt-4 space-y-5">
        <Comparison job={job} />
        <VariationPicker jobId={job.id} variations={job.variations} chosenVariationId={job.chosenVariationId} moreVariations={job.moreVariations} />
        <RoomUnchanged job={job} />
        <LabelEditor key={job.id} job={job} onEditingChange={setEditingLabel} />
        <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-stone-600">Status</dt>
            <dd className="mt-1">
              <StatusBadge status={job.status} />
            </dd>
          </div>
          <div>
            <dt className="text-stone-600">Processing Time</dt>
            <dd className="mt-1 font-medium">{processingTime(job)}</dd>
          </div>
          <div>
            <dt className="text-stone-600">Credits Used</dt>
            <dd className="mt-1 font-medium">{creditsUsedLabel(job)}</dd>
          </div>
          <div>
            <dt className="text-stone-600">Style</dt>
            <dd className="mt-1 font-medium">{STYLE_INFO[job.style].name}</dd>
          </div>
          <div>
            <dt className="text-stone-600">Room Type</dt>
            <dd className="mt-1 font-medium">{roomTypeLabel(job.roomType)}</dd>
          </div>
          <div>
            <dt className="text-stone-600">Created</dt>
            <dd className="mt-1 font-medium">{formatDate(job.createdAt)}</dd>
          </div>
        </dl>
        {job.stagedImageUrl ? (
          <div className="grid items-start gap-4 lg:grid-cols-2">
            <DownloadOptions key={`download-${job.id}`} job={job} />
            <SharePanel key={`share-${job.id}`} job={job} />
          </div>
        ) : (
          <Button variant="outline" onClick={() => downloadImage(job.originalImageUrl, originalFileName())}>
            <Download aria-hidden className="size-4" />
            Download Original
          </Button>
        )}
        <div className="flex flex-wrap items-end gap-2 border-t border-stone-200 pt-5">
          <div>
            <label htmlFor={`regen-style-${job.id}`} className="text-sm font-medium text-stone-800">
              Style for a new version
            </label>
            <StyleSelect id={`regen-style-${job.id}`} className="mt-1" value={regenStyle} onChange={setRegenStyle} />
          </div>
          <Button
            variant="outline"
            disabled={busy || noCredits}
            aria-describedby={noCredits ? creditsNoteId : undefined}
            onClick={() =>
              regenerate.mutate(
                withIdempotencyKey({ id: job.id, style: regenStyle, roomType: job.roomType }),
                {
                  onSuccess: (created) => {
                    toast({ title: 'Regeneration started', description: 'A new version is being staged. It costs 1 credit.' });
                    setConfirmDelete(false);
                    onRegenerated(created);
                  },
                  onError: onError('Regenerate failed'),
                },
              )
            }
          >
            <RefreshCw aria-hidden className="size-4" />
            Regenerate (1 credit)
          </Button>
          {job.status === 'failed' && (
            <Button
              variant="outline"
              disabled={busy || noCredits}
              aria-describedby={noCredits ? creditsNoteId : undefined}
              onClick={() =>
                retry.mutate(withIdempotencyKey({ id: job.id }), {
                  onSuccess: () => toast({ title: 'Retry started', description: 'The photo is being staged again. It costs 1 credit, refunded if it fails.' }),
                  onError: onError('Retry failed'),
                })
              }
            >
              <RotateCcw aria-hidden className="size-4" />
              Retry (1 credit)
            </Button>
          )}
          {confirmDelete ? (
            <div role="group" aria-label="Confirm delete" className="flex flex-wrap items-center gap-2 rounded-lg bg-red-50 p-2">
              <span className="text-sm text-red-800">Delete this staging and its images?</span>
              <Button
                variant="destructive"
                size="sm"
                disabled={busy}
                autoFocus
                onClick={() =>
                  remove.mutate(job.id, {
                    onSuccess: () => {
                      toast({ title: 'Staging deleted', description: 'The staging and its images were deleted.' });
                      onClose();
                    },
                    onError: onError('Delete failed'),
                  })
                }
              >
                Yes, delete
              </Button>
              <Button variant="outline" size="sm" onClick={() => setConfirmDelete(false)}>
                Keep it
              </Button>
            </div>
          ) : (
            <Button variant="ghost" className="text-red-700 hover:bg-red-50 hover:text-red-800" disabled={busy} onClick={() => setConfirmDelete(true)}>
              <Trash2 aria-hidden className="size-4" />
              Delete
            </Button>
          )}
        </div>
        {noCredits && (
          <p id={creditsNoteId} className="text-sm text-stone-600">
            0 credits available.{' '}
            <Link to="/pricing" className="font-medium text-accent-700 underline">
              Buy credits
            </Link>
          </p>
        )}
        <p className="sr-only" aria-live="polite">
          Status: {statusLabel(job.status)}
        </p>
      </div>
    </Dialog>
  );
}

