import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { updateProfileResponseSchema, userStatsSchema, type UpdateProfileRequest } from '@roomstager/contracts';
import { apiJson, apiJsonOrNull } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

const userStatsQuery = queryOptions({
  queryKey: queryKeys.userStats,
  queryFn: ({ signal }) => apiJsonOrNull('/api/users/stats', userStatsSchema, { signal }),
});

export const useUserStats = () => useQuery(userStatsQuery);

/** Saves the changed fields; the session (which carries the name and e-mail) is read again after. */
export function useUpdateProfile({ onSuccess, onError }: { onSuccess: () => void; onError: (error: Error) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: UpdateProfileRequest) => apiJson('PATCH', '/api/users/profile', updateProfileResponseSchema, changes),
    onSuccess: async () => {
      onSuccess();
      await queryClient.invalidateQueries({ queryKey: queryKeys.session });
    },
    onError,
  });
}
