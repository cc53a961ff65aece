import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiKeysResponseSchema, createdApiKeySchema, webhookSecretResponseSchema } from '@roomstager/contracts';
import { apiJson, apiJsonOrNull, apiRequest } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

const apiKeysQuery = queryOptions({
  queryKey: queryKeys.apiKeys,
  queryFn: ({ signal }) => apiJsonOrNull('/api/api-keys', apiKeysResponseSchema, { signal }),
});

export const useApiKeys = () => useQuery(apiKeysQuery);

/** The webhook signing secret, asked for only when the person shows it. */
export const useWebhookSecret = (enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.webhookSecret,
    queryFn: ({ signal }) => apiJson('GET', '/api/api-keys/webhook-secret', webhookSecretResponseSchema, undefined, { signal }),
    enabled,
  });

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiJson('POST', '/api/api-keys', createdApiKeySchema, { name }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/api/api-keys/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys }),
  });
}
