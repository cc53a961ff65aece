import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// TanStack Query never polls outside a browser (it checks for `window` when it loads): this test
// stands in for one.
vi.hoisted(() => {
  (globalThis as { window?: unknown }).window ??= globalThis;
});

import { focusManager, QueryObserver, type QueryClient } from '@tanstack/react-query';
import type { JobStatus, Listing, ListingPhoto } from '@roomstager/contracts';
import { listingQuery } from '../src/features/listings/api.ts';
import { chosenStagedUrl, creditShortfall, photoCountsText, photosToStage, stagingSummary } from '../src/features/listings/listing-state.ts';
import { uploadSummary } from '../src/features/listings/photo-drop.tsx';
import { TOO_MANY_PHOTOS, uploadBatch, type UploadEntry } from '../src/features/listings/photo-uploads.ts';
import { ApiError } from '../src/lib/api-client.ts';
import { createQueryClient } from '../src/lib/query-client.ts';

const LISTING_ID = '0f8b5a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
let ids = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`;

/** A photo as the API answers it; `status` null for one never staged. */
function photoIn(status: JobStatus | null, extra: { creditsUsed?: number } = {}): ListingPhoto {
  const variations = status === 'completed' ? [1, 2, 3].map((n) => ({ id: uuid(), stagedImageUrl: `/api/images/v${n}` })) : [];
  return {
    id: uuid(),
    imageUrl: '/api/images/original',
    roomType: 'living_room',
    createdAt: '2026-01-01T10:00:00.000Z',
    job: status && {
      id: uuid(),
      status,
      style: 'modern',
      variations,
      chosenVariationId: variations[1]?.id ?? null,
      moreVariations: { allowed: false, pending: 0, refunded: 0 },
      stagedImageUrl: status === 'completed' ? '/api/images/v2' : null,
      thumbnailUrl: '/api/images/original/thumbnail',
      errorMessage: status === 'failed' ? 'No room found' : null,
      creditsUsed: extra.creditsUsed ?? 1,
    },
  };
}

const listingOf = (...statuses: (JobStatus | null)[]): Listing => ({
  id: LISTING_ID,
  title: '12 Oak Street',
  style: 'modern',
  createdAt: '2026-01-01T10:00:00.000Z',
  photos: statuses.map((s) => photoIn(s)),
});

describe('what a listing shows and stages', () => {
  it('stages every photo never staged or whose staging failed, not those queued, staging or done', () => {
    const listing = listingOf(null, 'pending', 'processing', 'completed', 'failed', null);
    expect(photosToStage(listing).map((p) => p.job?.status ?? null)).toEqual([null, 'failed', null]);
  });

  it('shows the chosen variation as the staged photo', () => {
    const photo = photoIn('completed');
    expect(chosenStagedUrl(photo)).toBe('/api/images/v2');
    expect(chosenStagedUrl(photoIn('processing'))).toBeNull();
  });

  it('says how far the staging has got, for the live region', () => {
    expect(stagingSummary(listingOf('completed', 'processing', 'pending', 'failed'))).toBe('1 of 4 photos staged, 2 in progress, 1 failed');
    expect(stagingSummary(listingOf(null))).toBe('0 of 1 photo staged');
  });

  it("counts a card's photos", () => {
    expect(photoCountsText({ photoCount: 3, stagedCount: 1 })).toBe('3 photos · 1 staged');
    expect(photoCountsText({ photoCount: 1, stagedCount: 0 })).toBe('1 photo · 0 staged');
  });

  it('reads the missing credits from a 402, and nothing from any other failure', () => {
    const short = new ApiError('Insufficient credits', 402, 'INSUFFICIENT_CREDITS', { needed: 3, balance: 1 });
    expect(creditShortfall(short)).toEqual({ needed: 3, balance: 1, missing: 2 });
    expect(creditShortfall(new ApiError('Insufficient credits', 402, 'INSUFFICIENT_CREDITS'))).toBeNull();
    expect(creditShortfall(new ApiError('Not found', 404))).toBeNull();
    expect(creditShortfall(new Error('offline'))).toBeNull();
  });
});

describe('adding many photos at once', () => {
  const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0]);
  const jpeg = (name: string) => ({ key: name, file: new File([JPEG], name, { type: 'image/jpeg' }) });
  const text = (name: string) => ({ key: name, file: new File(['hello, world'], name, { type: 'image/jpeg' }) });

  /** Runs one drop against fake steps; returns each file's last state and the most uploads in flight at once. */
  async function drop(files: { key: string; file: File }[], room: number, failUpload: string[] = []) {
    const { checkFile } = await import('../src/lib/photo-check.ts');
    const states = new Map<string, Omit<UploadEntry, 'key' | 'name'>>();
    const added: string[] = [];
    let inFlight = 0;
    let most = 0;
    await uploadBatch(files, room, {
      check: checkFile,
      upload: async (file) => {
        inFlight++;
        most = Math.max(most, inFlight);
        // The first file is the slowest: it is still added first.
        await new Promise((r) => setTimeout(r, file.name === 'a.jpg' ? 30 : 5));
        inFlight--;
        if (failUpload.includes(file.name)) throw new Error('Upload rate limit reached');
        return { imageUrl: `/api/images/${file.name}` };
      },
      add: async (imageUrl) => {
        added.push(imageUrl);
      },
      onChange: (key, change) => states.set(key, change),
    });
    return { states: Object.fromEntries(states), most, added };
  }

  it('uploads two at a time and adds in the order dropped; a refused or failed file says why and the others are added', async () => {
    const { states, most, added } = await drop([jpeg('a.jpg'), text('notes.jpg'), jpeg('b.jpg'), jpeg('c.jpg'), jpeg('d.jpg')], 30, ['c.jpg']);
    expect(most).toBe(2);
    expect(added).toEqual(['/api/images/a.jpg', '/api/images/b.jpg', '/api/images/d.jpg']);
    expect(states).toEqual({
      'a.jpg': { state: 'added' },
      'notes.jpg': { state: 'rejected', message: 'Please upload a JPEG or PNG image file.' },
      'b.jpg': { state: 'added' },
      'c.jpg': { state: 'failed', message: 'Upload rate limit reached' },
      'd.jpg': { state: 'added' },
    });
  });

  it("refuses the files beyond the listing's room without sending them", async () => {
    const { states } = await drop([jpeg('a.jpg'), jpeg('b.jpg'), jpeg('c.jpg')], 1);
    expect(states).toEqual({
      'a.jpg': { state: 'added' },
      'b.jpg': { state: 'rejected', message: TOO_MANY_PHOTOS },
      'c.jpg': { state: 'rejected', message: TOO_MANY_PHOTOS },
    });
  });

  it('sums the drop up for the live region', () => {
    const entry = (state: UploadEntry['state']): UploadEntry => ({ key: state, name: state, state });
    expect(uploadSummary([entry('added'), entry('uploading'), entry('rejected')])).toBe('1 of 3 photos added, 1 not added');
  });
});

describe('a listing follows its photos while they stage', () => {
  let client: QueryClient;
  beforeEach(() => {
    vi.useFakeTimers();
    client = createQueryClient();
  });
  afterEach(() => {
    client.clear();
    focusManager.setFocused(undefined);
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  /** The server's answers to GET /api/listings/{id}, one per call; the last one repeats. */
  function answer(...listings: Listing[]) {
    let calls = 0;
    const fetchMock = vi.fn(async () => new Response(JSON.stringify(listings[Math.min(calls++, listings.length - 1)])));
    vi.stubGlobal('fetch', fetchMock);
    return fetchMock;
  }

  async function mount() {
    const observer = new QueryObserver(client, listingQuery(LISTING_ID));
    const unmount = observer.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    return { statuses: () => observer.getCurrentResult().data?.photos.map((p) => p.job?.status ?? null), unmount };
  }

  it('reads the listing every 2 s while a photo is queued or staging, and stops once none is', async () => {
    const fetchMock = answer(listingOf('pending', null), listingOf('processing', null), listingOf('completed', null));
    const page = await mount();
    expect(page.statuses()).toEqual(['pending', null]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(page.statuses()).toEqual(['processing', null]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(page.statuses()).toEqual(['completed', null]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    page.unmount();
  });

  it('does not read it while the tab is hidden, and goes on when it is shown again', async () => {
    const fetchMock = answer(listingOf('processing'), listingOf('processing'), listingOf('completed'));
    const page = await mount();
    focusManager.setFocused(false);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    focusManager.setFocused(true);
    await vi.advanceTimersByTimeAsync(4000);
    expect(page.statuses()).toEqual(['completed']);
    page.unmount();
  });
});
