import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Sparkles } from 'lucide-react';
import { DEFAULT_ROOM_TYPE, ROOM_TYPES, ROOM_TYPE_LABELS, type RoomType, type Style } from '@roomstager/contracts';
import { BeforeAfterSlider, PHOTO_MAX_HEIGHT } from '../../components/before-after-slider.tsx';
import { RoomUnchanged } from '../../components/room-unchanged.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { fieldClass } from '../../components/ui/field.ts';
import { toast } from '../../components/ui/use-toast.ts';
import { cn } from '../../lib/cn.ts';
import { withIdempotencyKey } from '../../lib/job-changes.ts';
import { isInProgress, jobTitle } from '../../lib/job-format.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useSession } from '../../lib/session.ts';
import { usePageMeta } from '../../lib/use-page-meta.ts';
import { useCreateJob, useJob, useUpload } from './api.ts';
import { FailurePanel } from './failure-panel.tsx';
import { PhotoDropzone } from './photo-dropzone.tsx';
import { ProgressPanel } from './progress-panel.tsx';
import { StylePicker } from './style-picker.tsx';

export default function GeneratePage() {
  usePageMeta('/generate');
  const { data: user } = useSession();
  const [file, setFile] = useState<File | null>(null);
  const [style, setStyle] = useState<Style | null>(null);
  const [roomType, setRoomType] = useState<RoomType>(DEFAULT_ROOM_TYPE);
  const [label, setLabel] = useState('');
  const [jobId, setJobId] = useState<string | null>(null);
  const upload = useUpload();
  const createJob = useCreateJob();
  const { data: job } = useJob(jobId);

  const completed = job?.status === 'completed' && !!job.stagedImageUrl;
  // The panel shows its last stage, 'Complete!', for a moment before the result replaces it.
  const [revealed, setRevealed] = useState(false);
  useEffect(() => {
    if (!completed || revealed) return;
    const timer = window.setTimeout(() => setRevealed(true), 1000);
    return () => window.clearTimeout(timer);
  }, [completed, revealed]);

  // A failed job's credit comes back: read the balance again when it ends.
  const queryClient = useQueryClient();
  const failed = job?.status === 'failed';
  useEffect(() => {
    if (!failed) return;
    void queryClient.invalidateQueries({ queryKey: queryKeys.session });
    void queryClient.invalidateQueries({ queryKey: queryKeys.creditTransactions });
  }, [failed, queryClient]);

  const credits = user?.credits ?? 0;
  const processing = jobId !== null && (job === undefined || isInProgress(job));
  const busy = upload.isPending || createJob.isPending || processing || completed;
  const disabled = !file || !style || busy || credits < 1;

  const reset = () => {
    setJobId(null);
    setRevealed(false);
    setFile(null);
    setStyle(null);
    upload.reset();
    createJob.reset();
  };

  const generate = async (e: FormEvent) => {
    e.preventDefault();
    if (!file || !style) {
      toast({ title: 'Missing information', description: 'Please select both a photo and a styling option.', variant: 'destructive' });
      return;
    }
    if (credits < 1) {
      toast({ title: 'Insufficient credits', description: 'You need at least 1 credit to generate a staging.', variant: 'destructive' });
      return;
    }
    let imageUrl: string;
    try {
      imageUrl = (await upload.mutateAsync(file)).imageUrl;
    } catch (error) {
      toast({ title: 'Upload failed', description: (error as Error).message || 'Failed to upload image', variant: 'destructive' });
      return;
    }
    try {
      const created = await createJob.mutateAsync(withIdempotencyKey({ originalImageUrl: imageUrl, style, userLabel: label.trim() || null, roomType }));
      setJobId(created.id);
    } catch (error) {
      toast({ title: 'Generation failed', description: (error as Error).message, variant: 'destructive' });
    }
  };

  if (job?.status === 'completed' && job.stagedImageUrl && revealed) {
    return (
      <>
        <h1 className="text-3xl font-bold tracking-tight">Stage Your Property</h1>
        <Card className="mt-8 p-4 sm:p-6">
          <h2 className="text-xl font-semibold">{jobTitle(job)}</h2>
          <p className="mt-1 text-sm text-stone-600">Your staged photo is ready and saved in your gallery.</p>
          <div className="mx-auto mt-6 max-w-3xl">
            <ResultSlider original={job.originalImageUrl} staged={job.stagedImageUrl} />
          </div>
          <RoomUnchanged job={job} className="mt-3" />
          <div className="mt-6 flex flex-wrap gap-3">
            <ButtonLink to="/gallery">View in Gallery</ButtonLink>
            <Button variant="outline" onClick={reset}>
              Stage another photo
            </Button>
          </div>
        </Card>
      </>
    );
  }

  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight">Stage Your Property</h1>
      <p className="mt-2 text-stone-600">Upload a photo of an empty room, choose a style, and spend one credit to stage it.</p>
      {job?.status === 'failed' ? (
        <FailurePanel errorMessage={job.errorMessage} onTryAgain={reset} />
      ) : (
        <form onSubmit={generate} className="mt-8 grid grid-cols-1 gap-8 lg:grid-cols-5">
          <div className="space-y-6 lg:col-span-3">
            <section aria-labelledby="photo-title">
              <h2 id="photo-title" className="mb-3 text-base font-semibold text-stone-900">
                Your photo
              </h2>
              <PhotoDropzone file={file} onFile={setFile} onClear={() => setFile(null)} disabled={busy} />
            </section>
            <StylePicker value={style} onChange={setStyle} disabled={busy} />
          </div>
          <div className="space-y-6 lg:col-span-2">
            <Card className="space-y-4 p-6">
              <div>
                <label htmlFor="room-type" className="text-sm font-medium text-stone-800">
                  Room type
                </label>
                <select id="room-type" className={cn('mt-1', fieldClass)} value={roomType} onChange={(e) => setRoomType(e.target.value as RoomType)} disabled={busy}>
                  {ROOM_TYPES.map((r) => (
                    <option key={r} value={r}>
                      {ROOM_TYPE_LABELS[r]}
                    </option>
                  ))}
                </select>
              </div>
              <div>
                <label htmlFor="job-label" className="text-sm font-medium text-stone-800">
                  Label (optional)
                </label>
                <input
                  id="job-label"
                  className={cn('mt-1', fieldClass)}
                  value={label}
                  onChange={(e) => setLabel(e.target.value)}
                  maxLength={100}
                  placeholder="e.g. 12 Oak Street, living room"
                  disabled={busy}
                />
              </div>
              <Button type="submit" size="lg" className="w-full" disabled={disabled}>
                <Sparkles aria-hidden className="size-5" />
                {upload.isPending ? 'Uploading...' : createJob.isPending ? 'Starting...' : processing ? 'Staging...' : 'Generate Staging (1 credit)'}
              </Button>
              <p className="text-center text-sm text-stone-600">
                {credits} {credits === 1 ? 'credit' : 'credits'} available.{' '}
                {credits < 1 && (
                  <Link to="/pricing" className="font-medium text-accent-700 underline">
                    Buy credits
                  </Link>
                )}
              </p>
            </Card>
            {(processing || completed) && <ProgressPanel done={completed} />}
          </div>
        </form>
      )}
    </>
  );
}

function ResultSlider({ original, staged }: { original: string; staged: string }) {
  return (
    <BeforeAfterSlider
      before={{ src: original, alt: 'Your original photo' }}
      after={{ src: staged, alt: 'Your staged photo' }}
      maxHeight={PHOTO_MAX_HEIGHT}
      fit="contain"
      priority
    />
  );
}
