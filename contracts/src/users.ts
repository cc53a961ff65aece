import { z } from 'zod';
import { sessionUserSchema } from './auth.ts';

export const USERNAME_MAX_LENGTH = 50;
export const EMAIL_MAX_LENGTH = 254;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** `PATCH /api/users/profile`: trimmed; unknown fields are refused with 400 `{message}`. */
export const updateProfileRequestSchema = z.strictObject({
  username: z
    .string({ error: 'Username must be text' })
    .trim()
    .min(1, { error: 'Username cannot be empty' })
    .max(USERNAME_MAX_LENGTH, { error: `Username must be at most ${USERNAME_MAX_LENGTH} characters` })
    .refine((v) => !CONTROL_CHARACTERS.test(v), { error: 'Username cannot contain control characters' })
    .optional(),
  email: z
    .string({ error: 'Email must be text' })
    .trim()
    .max(EMAIL_MAX_LENGTH, { error: 'Please enter a valid email address' })
    .pipe(z.email({ error: 'Please enter a valid email address' }))
    .optional(),
});
export type UpdateProfileRequest = z.infer<typeof updateProfileRequestSchema>;

/** The updated user, the same shape as `GET /api/auth/me`. */
export const updateProfileResponseSchema = z.object({ user: sessionUserSchema });
export type UpdateProfileResponse = z.infer<typeof updateProfileResponseSchema>;

/** `GET /api/users/stats`: images generated, credits purchased, money spent in cents. */
export const userStatsSchema = z.object({
  totalJobs: z.number().int().nonnegative(),
  totalCredits: z.number().int().nonnegative(),
  totalSpent: z.number().int().nonnegative(),
});
export type UserStats = z.infer<typeof userStatsSchema>;
