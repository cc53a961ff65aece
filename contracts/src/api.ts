import { z } from 'zod';

/** Body of every error answer of the API. */
export const errorBodySchema = z.object({
  message: z.string(),
  error: z.string().optional(),
  details: z.unknown().optional(),
  redirectTo: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['up', 'down']),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
