import { QueryClient } from '@tanstack/react-query';

/**
 * The app's defaults: no retries, no refetching by itself, data never stale by itself. Every query
 * names its own query function (each feature's `api.ts`): there is no default one.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
