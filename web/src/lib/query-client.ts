import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { throwIfResNotOk } from './api-client.ts';

type UnauthorizedBehavior = 'returnNull' | 'throw';

/** GET on the URL formed by joining the query key's segments with '/'. */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKey.join('/'), { credentials: 'include', signal });
    if (on401 === 'returnNull' && res.status === 401) {
      // Read to its end, or the browser counts the request as in flight.
      await res.text();
      return null;
    }
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/** The spec's defaults: no retries, no refetching by itself, data never stale by itself. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'returnNull' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
