import { useDropzone } from 'react-dropzone';
import { AlertCircle, CheckCircle2, ImagePlus, Loader2 } from 'lucide-react';
import { LISTING_PHOTOS_MAX } from '@roomstager/contracts';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { PICKER_ACCEPT } from '../../lib/photo-check.ts';
import { useFocusWhenLost } from '../../lib/use-focus-when-lost.ts';
import { isSettled, type UploadEntry, type UploadState } from './photo-uploads.ts';

const STATE_TEXT: Record<Exclude<UploadState, 'rejected' | 'failed'>, string> = {
  waiting: 'Waiting',
  checking: 'Checking',
  uploading: 'Uploading...',
  adding: 'Adding to the listing...',
  added: 'Added',
};

/** How far along each state is, for the row's bar. */
const STATE_PERCENT: Record<UploadState, number> = { waiting: 0, checking: 10, uploading: 40, adding: 80, added: 100, rejected: 100, failed: 100 };

/** "2 of 3 photos added, 1 refused": the list's summary, read out as it changes. */
export function uploadSummary(entries: readonly UploadEntry[]): string {
  const added = entries.filter((e) => e.state === 'added').length;
  const refused = entries.filter((e) => e.state === 'rejected' || e.state === 'failed').length;
  const parts = [`${added} of ${entries.length} ${entries.length === 1 ? 'photo' : 'photos'} added`];
  if (refused > 0) parts.push(`${refused} not added`);
  return parts.join(', ');
}

function UploadRow({ entry }: { entry: UploadEntry }) {
  const problem = entry.state === 'rejected' || entry.state === 'failed';
  return (
    <li className="py-2">
      <div className="flex items-start gap-2 text-sm">
        {problem ? (
          <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0 text-red-700" />
        ) : entry.state === 'added' ? (
          <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0 text-green-700" />
        ) : (
          <Loader2 aria-hidden className="mt-0.5 size-4 shrink-0 animate-spin text-accent-700 motion-reduce:animate-none" />
        )}
        <span className="min-w-0 flex-1">
          <span className="block truncate font-medium text-stone-900">{entry.name}</span>
          <span className={cn('block', problem ? 'text-red-700' : 'text-stone-600')}>{problem ? entry.message : STATE_TEXT[entry.state as keyof typeof STATE_TEXT]}</span>
        </span>
      </div>
      {!problem && (
        <div className="mt-1.5 ml-6 h-1.5 overflow-hidden rounded-full bg-stone-100" aria-hidden>
          <div className="h-full rounded-full bg-accent-700 transition-[width] duration-200" style={{ width: `${STATE_PERCENT[entry.state]}%` }} />
        </div>
      )}
    </li>
  );
}

interface PhotoDropProps {
  entries: readonly UploadEntry[];
  onFiles: (files: File[]) => void;
  onClear: () => void;
  full: boolean;
}

/**
 * Many photos at once, by dropping or choosing. Every file is taken here and judged on its own
 * afterwards (photo-uploads.ts), so one bad file does not turn the whole drop away.
 */
export function PhotoDrop({ entries, onFiles, onClear, full }: PhotoDropProps) {
  const { getRootProps, getInputProps, isDragActive, rootRef } = useDropzone({
    multiple: true,
    disabled: full,
    onDrop: (accepted, rejections) => onFiles([...accepted, ...rejections.map((r) => r.file)]),
  });
  const settled = entries.length > 0 && entries.every(isSettled);
  // "Clear list" goes away with the list it clears: focus moves back to the drop zone.
  useFocusWhenLost(entries.length === 0, rootRef);

  return (
    <div>
      <div
        {...getRootProps({
          className: cn(
            'flex min-h-40 cursor-pointer flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed p-6 text-center transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-700',
            isDragActive ? 'border-accent-700 bg-accent-50' : 'border-stone-300 bg-stone-50 hover:border-stone-400',
            full && 'cursor-not-allowed opacity-60',
          ),
        })}
      >
        <input {...getInputProps({ accept: PICKER_ACCEPT, 'aria-label': 'Add photos to this listing' })} />
        <ImagePlus aria-hidden className="size-8 text-accent-700" />
        <p className="font-medium text-stone-900">
          {full ? `This listing has ${LISTING_PHOTOS_MAX} photos, the most it can hold` : isDragActive ? 'Drop the photos here' : 'Drag photos here, or click to choose them'}
        </p>
        <p className="text-sm text-stone-600">Supports JPG, PNG up to 10MB each, {LISTING_PHOTOS_MAX} photos per listing</p>
      </div>
      {entries.length > 0 && (
        <div className="mt-4 rounded-xl border border-stone-200 bg-white p-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm font-medium text-stone-800" role="status">
              {uploadSummary(entries)}
            </p>
            {settled && (
              <Button variant="ghost" size="sm" onClick={onClear}>
                Clear list
              </Button>
            )}
          </div>
          <ul aria-label="Photos being added" className="mt-2 divide-y divide-stone-100">
            {entries.map((entry) => (
              <UploadRow key={entry.key} entry={entry} />
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
