import { useCallback, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { DEFAULT_ROOM_TYPE, LISTING_PHOTOS_MAX } from '@roomstager/contracts';
import { checkFile, PHOTO_PROBLEM_TEXT, type PhotoProblem } from '../../lib/photo-check.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { uploadPhoto } from '../../lib/upload.ts';
import { addListingPhoto } from './api.ts';

/**
 * Photos sent at once. Each upload builds a base64 body of up to 13 MB and the server normalises
 * each photo: two keep the line busy without flooding the browser, the server or its upload limit.
 */
export const UPLOADS_AT_ONCE = 2;

export type UploadState = 'waiting' | 'checking' | 'uploading' | 'adding' | 'added' | 'rejected' | 'failed';

/** One dropped file on its way into the listing. `message` says why it was rejected or failed. */
export interface UploadEntry {
  key: string;
  name: string;
  state: UploadState;
  message?: string;
}

export const TOO_MANY_PHOTOS = `A listing holds at most ${LISTING_PHOTOS_MAX} photos.`;

export const isSettled = (entry: UploadEntry): boolean => entry.state === 'added' || entry.state === 'rejected' || entry.state === 'failed';

/** Runs `work` on every item, at most `limit` at a time; one item's failure is its own (`work` reports it). */
async function runPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

export interface UploadSteps {
  check: (file: File) => Promise<PhotoProblem | null>;
  upload: (file: File) => Promise<{ imageUrl: string }>;
  add: (imageUrl: string) => Promise<unknown>;
  /** Called with each entry's every change. */
  onChange: (key: string, change: Omit<UploadEntry, 'key' | 'name'>) => void;
}

/**
 * Takes one drop: each file is checked as on /generate, uploaded and added to the listing, a
 * couple at a time. A file that is refused or fails says why in its own entry and the others go on;
 * files beyond the listing's room are refused without being sent.
 */
export async function uploadBatch(files: readonly { key: string; file: File }[], room: number, steps: UploadSteps): Promise<void> {
  const taken = files.slice(0, Math.max(0, room));
  files.slice(taken.length).forEach(({ key }) => steps.onChange(key, { state: 'rejected', message: TOO_MANY_PHOTOS }));
  // Uploads overlap, but photos join the listing in the order they were dropped: each is added
  // once the one before it is added, refused or failed.
  const settledInTurn = taken.map(() => {
    let resolve = () => {};
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  });
  await runPool(
    taken.map((entry, i) => ({ ...entry, i })),
    UPLOADS_AT_ONCE,
    async ({ key, file, i }) => {
      try {
        steps.onChange(key, { state: 'checking' });
        const problem = await steps.check(file);
        if (problem) {
          steps.onChange(key, { state: 'rejected', message: PHOTO_PROBLEM_TEXT[problem] });
          return;
        }
        steps.onChange(key, { state: 'uploading' });
        const { imageUrl } = await steps.upload(file);
        await settledInTurn[i - 1]?.promise;
        steps.onChange(key, { state: 'adding' });
        await steps.add(imageUrl);
        steps.onChange(key, { state: 'added' });
      } catch (error) {
        steps.onChange(key, { state: 'failed', message: (error as Error).message || 'Failed to upload image' });
      } finally {
        // In turn too, so a file refused early does not let the next one overtake the files before it.
        void (settledInTurn[i - 1]?.promise ?? Promise.resolve()).then(() => settledInTurn[i]?.resolve());
      }
    },
  );
}

/**
 * The uploads of a listing page: every drop's files as entries with their state. Each added photo
 * reads the listing again, so the grid fills as photos arrive.
 */
export function usePhotoUploads(listingId: string, photoCount: number) {
  const queryClient = useQueryClient();
  const [entries, setEntries] = useState<UploadEntry[]>([]);
  // Photos of earlier drops still on their way count against the listing's room.
  const inFlight = useRef(0);

  const add = useCallback(
    async (files: readonly File[]) => {
      const batch = files.map((file) => ({ key: crypto.randomUUID(), file }));
      setEntries((current) => [...current.filter((e) => !isSettled(e)), ...batch.map(({ key, file }) => ({ key, name: file.name, state: 'waiting' as const }))]);
      const room = LISTING_PHOTOS_MAX - photoCount - inFlight.current;
      const sent = Math.min(batch.length, Math.max(0, room));
      inFlight.current += sent;
      try {
        await uploadBatch(batch, room, {
          check: checkFile,
          upload: uploadPhoto,
          add: async (imageUrl) => {
            await addListingPhoto(listingId, imageUrl, DEFAULT_ROOM_TYPE);
            await queryClient.invalidateQueries({ queryKey: queryKeys.listings });
          },
          onChange: (key, change) => setEntries((current) => current.map((e) => (e.key === key ? { ...e, ...change } : e))),
        });
      } finally {
        inFlight.current -= sent;
      }
    },
    [listingId, photoCount, queryClient],
  );

  const clear = useCallback(() => setEntries((current) => current.filter((e) => !isSettled(e))), []);
  return { entries, add, clear };
}
