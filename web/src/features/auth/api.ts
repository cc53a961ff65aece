import { apiRequest } from '../../lib/api-client.ts';

/**
 * Where the coming sign-in lands: the server keeps `returnTo` with the sign-in attempt. Only the
 * status is read: the browser leaves for Google next, whatever the answer says.
 */
export async function storeReturnUrl(returnTo: string): Promise<void> {
  await apiRequest('POST', '/api/auth/store-return-url', { returnTo });
}
