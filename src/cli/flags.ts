/**
 * Flag values parsed with zod at the edge: a bad value is an InputError naming the flag. The
 * messages come from ./flag-checks.ts, which `recall` uses without zod.
 */
import { z } from 'zod';
import { InputError } from '../core/errors.js';
import {
  FlagProblem,
  ID_MESSAGE,
  ID_PATTERN,
  REPO_MESSAGE,
  REPO_PATTERN,
  wholeNumber as checkWholeNumber,
} from './flag-checks.js';
import type { Check } from './flag-checks.js';
import { MEMORY_LEVELS, MEMORY_STATUSES, VISIBILITIES } from '../core/types.js';

/** A zod schema from a plain check of ./flag-checks.ts: the same message in every command. */
function fromCheck<T>(check: Check<T>) {
  return z.unknown().transform((value, ctx) => {
    try {
      return check(value);
    } catch (error) {
      if (!(error instanceof FlagProblem)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message });
      return z.NEVER;
    }
  });
}

/**
 * A whole number in a range, from a flag's text: one message naming the allowed range, an example
 * and what was given (`--max: must be a whole number of at least 1, e.g. 100; got "abc"`).
 */
function wholeNumber(min: number, max: number | undefined, example: number) {
  return fromCheck(checkWholeNumber(min, max, example));
}

export const flag = {
  positiveInt: z.coerce
    .number({ error: 'must be a whole number, e.g. 10' })
    .int('must be a whole number, e.g. 10')
    .positive('must be at least 1, e.g. 10'),
  wholeNumber,
  repo: z.string().regex(REPO_PATTERN, REPO_MESSAGE),
  visibility: z.enum(VISIBILITIES, { error: `must be one of ${VISIBILITIES.join(', ')}` }),
  level: z.enum(MEMORY_LEVELS, { error: `must be one of ${MEMORY_LEVELS.join(', ')}` }),
  status: z.enum(MEMORY_STATUSES, { error: `must be one of ${MEMORY_STATUSES.join(', ')}` }),
  id: z.string().regex(ID_PATTERN, ID_MESSAGE),
};

/**
 * Parses commander's option values; names the flag of the first bad one (`--max: must be …`).
 * Keys are camelCase option names; undefined values are left out.
 */
export function parseFlags<T extends z.ZodRawShape>(
  shape: T,
  values: Record<string, unknown>,
): z.output<z.ZodObject<T>> {
  const result = z.object(shape).safeParse(values);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const key = String(issue?.path[0] ?? '');
  const name = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  throw new InputError(`${key ? `--${name}: ` : ''}${issue?.message ?? 'invalid value'}`);
}
