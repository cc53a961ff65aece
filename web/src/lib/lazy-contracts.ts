/**
 * The contracts of the calls the public pages make. Loaded with the first answer that needs one
 * (see `ContractSource`), so zod stays off the public pages' first paint.
 */
export { logoutResponseSchema, meResponseSchema, storeReturnUrlResponseSchema } from '@roomstager/contracts';
