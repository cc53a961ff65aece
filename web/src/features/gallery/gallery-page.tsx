import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ChevronLeft, ChevronRight, Plus } from 'lucide-react';
import type { Job } from '@roomstager/contracts';
import { CardGridSkeleton, LoadFailed } from '../../components/card-grid-states.tsx';
import { PreviewImage } from '../../components/preview-image.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';
import { formatDate } from '../../lib/format.ts';
import { jobTitle } from '../../lib/job-format.ts';
import { usePageMeta } from '../../lib/use-page-meta.ts';
import { useJobPage } from './api.ts';
import { JobDialog } from './job-dialog.tsx';

function JobCard({ job, onOpen }: { job: Job; onOpen: (card: HTMLButtonElement) => void }) {
  return (
    <li>
      <button
        type="button"
        onClick={(e) => onOpen(e.currentTarget)}
        className="group block w-full overflow-hidden rounded-xl border border-stone-200 bg-white text-left shadow-sm transition-shadow hover:shadow-md"
        aria-label={`Open ${jobTitle(job)}`}
      >
        <PreviewImage src={job.thumbnailUrl} alt="" />
        <span className="flex items-start justify-between gap-2 p-4">
          <span className="min-w-0">
            <span className="block truncate font-medium text-stone-900">{jobTitle(job)}</span>
            <span className="mt-0.5 block text-sm text-stone-600">{formatDate(job.createdAt)}</span>
          </span>
          <StatusBadge status={job.status} />
        </span>
      </button>
    </li>
  );
}

function Pagination({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  return (
    <nav aria-label="Gallery pages" className="mt-8 flex flex-wrap items-center justify-center gap-1">
      <Button variant="ghost" onClick={() => onPage(page - 1)} disabled={page <= 1} aria-label="Previous page">
        <ChevronLeft aria-hidden className="size-4" />
        Previous
      </Button>
      {Array.from({ length: pages }, (_, i) => i + 1).map((n) => (
        <button
          key={n}
          type="button"
          onClick={() => onPage(n)}
          aria-current={n === page ? 'page' : undefined}
          aria-label={`Page ${n}`}
          className={cn(
            'inline-flex size-11 items-center justify-center rounded-lg text-sm font-medium',
            n === page ? 'bg-accent-700 text-white' : 'text-stone-700 hover:bg-stone-100',
          )}
        >
          {n}
        </button>
      ))}
      <Button variant="ghost" onClick={() => onPage(page + 1)} disabled={page >= pages} aria-label="Next page">
        Next
        <ChevronRight aria-hidden className="size-4" />
      </Button>
    </nav>
  );
}

const PAGE_PARAM = /^[1-9][0-9]{0,5}$/;

/** The page number in the address (`/gallery?page=2`), so a reload or Back keeps it; else page 1. */
const pageFromSearch = (value: string | null): number => (value && PAGE_PARAM.test(value) ? Number(value) : 1);

export default function GalleryPage() {
  usePageMeta('/gallery');
  const [searchParams, setSearchParams] = useSearchParams();
  const page = pageFromSearch(searchParams.get('page'));
  const goToPage = useCallback(
    (next: number, options?: { replace: boolean }) => setSearchParams(next > 1 ? { page: String(next) } : {}, options),
    [setSearchParams],
  );
  const [selected, setSelected] = useState<Job | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const { data, isPending, isError, refetch, isFetching, isPlaceholderData } = useJobPage(page);
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  // The listed copy is the current one: the list is polled while a job on it is in progress.
  const shown = selected && (data?.jobs.find((job) => job.id === selected.id) ?? selected);

  // An address past the last page (typed, or left behind by a deletion) shows the last page.
  useEffect(() => {
    if (data && !isPlaceholderData && page > pages) goToPage(pages, { replace: true });
  }, [data, isPlaceholderData, page, pages, goToPage]);

  const showRegenerated = (job: Job) => {
    setSelected(job);
    // The new job is the newest: its card is at the top of page 1.
    if (page !== 1) goToPage(1);
  };

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        {/* Focus lands here when a dialog closes after its card went away (a deletion). */}
        <h1 ref={heading} tabIndex={-1} className="text-3xl font-bold tracking-tight focus:outline-none">
          Your Gallery
        </h1>
        <ButtonLink to="/generate">
          <Plus aria-hidden className="size-4" />
          New Staging
        </ButtonLink>
      </div>

      {isPending ? (
        <CardGridSkeleton label="Loading your photos" count={6} />
      ) : isError ? (
        <LoadFailed title="Failed to load gallery" onRetry={() => void refetch()} retrying={isFetching}>
          There was an issue loading your photos
        </LoadFailed>
      ) : data.total === 0 ? (
        <Card className="mt-8 p-10 text-center">
          <h2 className="text-lg font-semibold">No stagings yet</h2>
          <p className="mt-1 text-stone-600">Upload a photo of an empty room and see it furnished in minutes.</p>
          <ButtonLink to="/generate" className="mt-6">
            Stage your first room
          </ButtonLink>
        </Card>
      ) : (
        <>
          <ul className="mt-8 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {data.jobs.map((job) => (
              <JobCard
                key={job.id}
                job={job}
                onOpen={(card) => {
                  opener.current = card;
                  setSelected(job);
                }}
              />
            ))}
          </ul>
          {data.total > data.pageSize && <Pagination page={page} pages={pages} onPage={goToPage} />}
        </>
      )}
      {shown && (
        <JobDialog
          job={shown}
          onClose={() => setSelected(null)}
          onRegenerated={showRegenerated}
          returnFocus={() => (opener.current?.isConnected ? opener.current : heading.current)}
        />
      )}
    </>
  );
}
