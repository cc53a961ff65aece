import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Download } from 'lucide-react';
import { DOWNLOAD_LONG_SIDE, DOWNLOAD_SIZES, originalFileName, stagedFileName, VIRTUALLY_STAGED_LABEL, type DownloadSize, type Job } from '@roomstager/contracts';
import { Button } from '../../components/ui/button.tsx';
import { stagedDownloadUrl, useDownloadSizes } from './api.ts';
import { downloadImage } from './download.ts';

const SIZE_NAMES: Readonly<Record<DownloadSize, string>> = { hd: 'HD', '4k': '4K' };

/**
 * The downloads of a finished staging: its size (HD for everyone, 4K with the Enterprise pack; a
 * smaller photo comes at its own size), the optional "Virtually Staged" stamp, and the original.
 */
export function DownloadOptions({ job }: { job: Job }) {
  const id = useId();
  const sizes = useDownloadSizes();
  const [size, setSize] = useState<DownloadSize>('hd');
  const [label, setLabel] = useState(false);
  const allowed: readonly DownloadSize[] = sizes.data?.sizes ?? ['hd'];
  const fourK = allowed.includes('4k');
  const noteId = `${id}-4k-note`;
  const labelHintId = `${id}-label-hint`;

  return (
    <div className="space-y-3 rounded-xl border border-stone-200 p-4">
      <fieldset>
        <legend className="text-sm font-medium text-stone-800">Download size</legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {DOWNLOAD_SIZES.map((s) => {
            const disabled = !allowed.includes(s);
            return (
              <label
                key={s}
                className={`flex min-h-11 items-center gap-2 rounded-lg border px-3 text-sm has-[:checked]:border-accent-700 has-[:checked]:bg-accent-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent-700 ${disabled ? 'cursor-not-allowed border-stone-200 text-stone-500' : 'cursor-pointer border-stone-300 text-stone-900'}`}
              >
                <input
                  type="radio"
                  name={`${id}-size`}
                  value={s}
                  checked={size === s}
                  disabled={disabled}
                  aria-describedby={disabled ? noteId : undefined}
                  onChange={() => setSize(s)}
                  className="size-4 accent-accent-700"
                />
                <span className="font-medium">{SIZE_NAMES[s]}</span>
                <span className={disabled ? 'text-stone-500' : 'text-stone-600'}>{DOWNLOAD_LONG_SIDE[s]} px</span>
              </label>
            );
          })}
        </div>
        {sizes.isSuccess && !fourK && (
          <p id={noteId} className="mt-2 text-sm text-stone-600">
            4K downloads come with the Enterprise pack.{' '}
            <Link to="/pricing" className="font-medium text-accent-700 underline">
              See pricing
            </Link>
          </p>
        )}
      </fieldset>
      <div>
        <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm font-medium text-stone-900">
          <input type="checkbox" checked={label} onChange={(e) => setLabel(e.target.checked)} aria-describedby={labelHintId} className="size-4 accent-accent-700" />
          Stamp “{VIRTUALLY_STAGED_LABEL}” on the photo
        </label>
        <p id={labelHintId} className="text-sm text-stone-600">
          Stamped small in the bottom-left corner of the staged photo. Many MLSs ask for it; some forbid any overlay, so check yours.
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="primary" onClick={() => downloadImage(stagedDownloadUrl(job.id, size, label), stagedFileName(job.style))}>
          <Download aria-hidden className="size-4" />
          Download Staged
        </Button>
        <Button variant="outline" onClick={() => downloadImage(job.originalImageUrl, originalFileName())}>
          <Download aria-hidden className="size-4" />
          Download Original
        </Button>
      </div>
    </div>
  );
}
