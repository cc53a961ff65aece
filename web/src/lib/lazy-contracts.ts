/**
 * The contract of the one call the public pages make, the session check. Loaded with its answer
 * (see `ContractSource`), so zod stays off the public pages' first paint.
 */
export { meResponseSchema } from '@roomstager/contracts';
