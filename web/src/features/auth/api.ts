import { apiJson } from '../../lib/api-client.ts';

const storeReturnUrlContract = () => import('../../lib/lazy-contracts.ts').then((m) => m.storeReturnUrlResponseSchema);

/** Where the coming sign-in lands: the server keeps `returnTo` with the sign-in attempt. */
export const storeReturnUrl = (returnTo: string) => apiJson('POST', '/api/auth/store-return-url', storeReturnUrlContract, { returnTo });
