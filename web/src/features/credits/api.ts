import { queryOptions, useQuery } from '@tanstack/react-query';
import { creditTransactionsResponseSchema } from '@roomstager/contracts';
import { apiJsonOrNull } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

const creditTransactionsQuery = queryOptions({
  queryKey: queryKeys.creditTransactions,
  queryFn: ({ signal }) => apiJsonOrNull('/api/credits/transactions', creditTransactionsResponseSchema, { signal }),
});

export const useCreditTransactions = () => useQuery(creditTransactionsQuery);
