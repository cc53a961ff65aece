import { useQuery } from '@tanstack/react-query';
import type { MeResponse, SessionUser } from '@roomstager/contracts';

export type { SessionUser };

export const SESSION_QUERY_KEY = ['/api/auth/me'] as const;

/**
 * 401 is no user; any other failure is 'status: statusText'. A failed answer's
 * body is still read to its end: until then the browser counts the request as in flight.
 */
export async function fetchSession({ signal }: { signal: AbortSignal }): Promise<SessionUser | null> {
  const res = await fetch('/api/auth/me', { credentials: 'include', signal });
  if (!res.ok) await res.text();
  if (res.status === 401) return null;
  if (!res.ok) throw new Error(`${res.status}: ${res.statusText}`);
  const body = (await res.json()) as MeResponse;
  return body.user;
}

export function useSession() {
  return useQuery({
    queryKey: SESSION_QUERY_KEY,
    queryFn: fetchSession,
    staleTime: 5 * 60 * 1000,
    gcTime: 10 * 60 * 1000,
    retry: false,
    refetchOnWindowFocus: false,
  });
}
