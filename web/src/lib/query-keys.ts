/**
 * Every query key of the app. A key starts with the API path its query reads, so the logout can
 * drop every query but the session's by the first segment.
 */
export const queryKeys = {
  session: ['/api/auth/me'] as const,
  jobs: ['/api/jobs'] as const,
  jobPage: (page: number) => ['/api/jobs', { page }] as const,
  job: (id: string | null) => ['/api/jobs', id] as const,
  jobShare: (id: string) => ['/api/jobs', id, 'share'] as const,
  listings: ['/api/listings'] as const,
  listing: (id: string) => ['/api/listings', id] as const,
  downloadSizes: ['/api/downloads/sizes'] as const,
  creditTransactions: ['/api/credits/transactions'] as const,
  userStats: ['/api/users/stats'] as const,
  paypalClientId: ['/api/paypal/client-id'] as const,
  pendingPayment: (orderID: string) => ['/api/payments/paypal-success', orderID] as const,
  apiKeys: ['/api/api-keys'] as const,
  webhookSecret: ['/api/api-keys/webhook-secret'] as const,
};
