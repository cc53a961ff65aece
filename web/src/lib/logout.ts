import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from '../components/ui/use-toast.ts';
import { apiRequest } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

/**
 * Set while a logout leaves a protected page: the router's navigation is a transition (and may
 * wait for the landing chunk), so the page's guard can see the cleared session first and must not
 * answer it with 'Authentication Required' and a trip to /login.
 */
export const logoutState = { leaving: false };

/**
 * Success or failure, the session cache is cleared and the browser goes to /.
 * `everywhere` ends every session of the account, not only this browser's.
 */
export function useLogout({ everywhere = false }: { everywhere?: boolean } = {}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    // Only the status is read: whatever the answer, the session is dropped here (onSettled).
    mutationFn: async () => {
      await apiRequest('POST', everywhere ? '/api/auth/logout-all' : '/api/auth/logout');
    },
    onSuccess: () => {
      toast(
        everywhere
          ? { title: 'Signed out everywhere', description: 'Every session of your account has ended, on all devices.' }
          : { title: 'Logged out', description: 'You have been successfully logged out.' },
      );
    },
    onError: (error) => {
      toast({ title: 'Logout failed', description: error.message, variant: 'destructive' });
    },
    onSettled: () => {
      logoutState.leaving = true;
      navigate('/');
      queryClient.setQueryData(queryKeys.session, null);
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.session[0] });
    },
  });
}
