import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createdResponseSchema,
  listingListResponseSchema,
  listingSchema,
  stageListingResponseSchema,
  type CreateListingRequest,
  type RoomType,
  type UpdateListingRequest,
} from '@roomstager/contracts';
import { apiJson, apiRequest } from '../../lib/api-client.ts';
import { idempotencyHeader, JOB_POLL_MS, useRefreshAfterJobChange, type Keyed } from '../../lib/job-changes.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { hasActivePhoto } from './listing-state.ts';

/** The user's listings, read on every visit: staging elsewhere changes their counts and covers. */
export const useListings = () =>
  useQuery({
    queryKey: queryKeys.listings,
    queryFn: ({ signal }) => apiJson('GET', '/api/listings', listingListResponseSchema, undefined, { signal }),
    staleTime: 0,
  });

/**
 * One listing, read on every visit and every 2 s while any of its photos is queued or staging, so
 * each photo follows its staging to the end. Not while the tab is hidden: nobody is looking, and a
 * listing of 30 photos is a large answer.
 */
export function listingQuery(id: string) {
  return queryOptions({
    queryKey: queryKeys.listing(id),
    queryFn: ({ signal }) => apiJson('GET', `/api/listings/${id}`, listingSchema, undefined, { signal }),
    staleTime: 0,
    refetchInterval: (query) => (hasActivePhoto(query.state.data) ? JOB_POLL_MS : false),
    refetchIntervalInBackground: false,
  });
}

export const useListing = (id: string) => useQuery(listingQuery(id));

/** Reads the listings again (the list and every listing) after a change to one. */
function useRefreshListings() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.listings });
}

export function useCreateListing() {
  const refresh = useRefreshListings();
  return useMutation({
    mutationFn: (body: CreateListingRequest) => apiJson('POST', '/api/listings', createdResponseSchema, body),
    onSuccess: () => refresh(),
  });
}

export function useUpdateListing(id: string) {
  const refresh = useRefreshListings();
  return useMutation({
    mutationFn: async (body: UpdateListingRequest) => {
      await apiRequest('PATCH', `/api/listings/${id}`, body);
    },
    onSuccess: () => refresh(),
  });
}

export function useDeleteListing(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await apiRequest('DELETE', `/api/listings/${id}`);
    },
    // Its own query would only answer 404 now: drop it instead of reading it again.
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: queryKeys.listing(id), exact: true });
      return queryClient.invalidateQueries({ queryKey: queryKeys.listings });
    },
  });
}

/** Adds an uploaded photo (`POST /api/upload`'s imageUrl); the listing is read again by the caller once a batch settles. */
export const addListingPhoto = (listingId: string, imageUrl: string, roomType: RoomType) =>
  apiJson('POST', `/api/listings/${listingId}/photos`, createdResponseSchema, { imageUrl, roomType });

export function useUpdatePhotoRoomType(listingId: string) {
  const refresh = useRefreshListings();
  return useMutation({
    mutationFn: async ({ photoId, roomType }: { photoId: string; roomType: RoomType }) => {
      await apiRequest('PATCH', `/api/listings/${listingId}/photos/${photoId}`, { roomType });
    },
    onSuccess: () => refresh(),
  });
}

export function useRemovePhoto(listingId: string) {
  const refresh = useRefreshListings();
  return useMutation({
    mutationFn: async (photoId: string) => {
      await apiRequest('DELETE', `/api/listings/${listingId}/photos/${photoId}`);
    },
    onSuccess: () => refresh(),
  });
}

/** After staging: the listing (which then polls), the balance, the gallery, the history. */
function useRefreshAfterStaging() {
  const refreshJobs = useRefreshAfterJobChange();
  const refreshListings = useRefreshListings();
  return () => Promise.all([refreshJobs(), refreshListings()]);
}

/** Stages every photo not staged yet (or failed), one credit each, all debited at once or none (402). */
export function useStageListing(listingId: string) {
  const refresh = useRefreshAfterStaging();
  return useMutation({
    mutationFn: () => apiJson('POST', `/api/listings/${listingId}/stage`, stageListingResponseSchema),
    onSuccess: () => refresh(),
  });
}

/** Stages one photo again, one credit, with an Idempotency-Key per press as Regenerate and Retry do. */
export function useStagePhoto(listingId: string) {
  const refresh = useRefreshAfterStaging();
  return useMutation({
    mutationFn: ({ photoId, idempotencyKey }: Keyed<{ photoId: string }>) =>
      apiJson('POST', `/api/listings/${listingId}/photos/${photoId}/stage`, stageListingResponseSchema, undefined, idempotencyHeader(idempotencyKey)),
    onSuccess: () => refresh(),
  });
}

/** The listing's ZIP: a plain link, so the browser streams it to disk instead of holding it in memory. */
export const listingZipUrl = (listingId: string) => `/api/listings/${listingId}/download`;
