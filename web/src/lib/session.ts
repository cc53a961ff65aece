import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionUser } from '@roomstager/contracts';
import { ApiError, apiJsonOrNull } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

export type { SessionUser };

const meContract = () => import('./lazy-contracts.ts').then((m) => m.meResponseSchema);

/** 401 is no user; any other failure is 'status: statusText', whatever its body says. */
export async function fetchSession({ signal }: { signal: AbortSignal }): Promise<SessionUser | null> {
  try {
    const answer = await apiJsonOrNull('/api/auth/me', meContract, { signal });
    return answer?.user ?? null;
  } catch (error) {
    if (error instanceof ApiError) throw new Error(`${error.status}: ${error.statusText}`, { cause: error });
    throw error;
  }
}

const sessionQuery = queryOptions({
  queryKey: queryKeys.session,
  queryFn: fetchSession,
  staleTime: 5 * 60 * 1000,
  gcTime: 10 * 60 * 1000,
  retry: false,
  refetchOnWindowFocus: false,
});

/** The signed-in user (null when nobody is), read by every screen. */
export const useSession = () => useQuery(sessionQuery);
