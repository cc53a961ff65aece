import type { z } from 'zod';
import { BadRequestError } from '../domain/errors.ts';

/** Parses an HTTP input with its zod schema; a mismatch is a 400 naming every problem. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = 'request body'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const first = details[0];
  const message = first ? `Invalid ${what}: ${first.path ? `${first.path}: ` : ''}${first.message}` : `Invalid ${what}`;
  throw new BadRequestError(message, details);
}
