/**
 * Flag values parsed with zod at the edge: a bad value is an InputError naming the flag.
 */
import { z } from 'zod';
import { InputError } from '../core/errors.js';
import { MEMORY_LEVELS, MEMORY_STATUSES, VISIBILITIES } from '../core/types.js';

/**
 * A whole number in a range, from a flag's text: one message naming the allowed range, an example
 * and what was given (`--max: must be a whole number of at least 1, e.g. 100; got "abc"`).
 */
function wholeNumber(min: number, max: number | undefined, example: number) {
  const form = max === undefined ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`;
  return z.unknown().transform((value, ctx) => {
    const text = String(value).trim();
    const n = typeof value === 'number' ? value : /^[+-]?\d+$/.test(text) ? Number(text) : Number.NaN;
    if (Number.isSafeInteger(n) && n >= min && (max === undefined || n <= max)) return n;
    ctx.addIssue({ code: 'custom', message: `must be ${form}, e.g. ${example}; got ${JSON.stringify(text)}` });
    return z.NEVER;
  });
}

export const flag = {
  positiveInt: z.coerce
    .number({ error: 'must be a whole number, e.g. 10' })
    .int('must be a whole number, e.g. 10')
    .positive('must be at least 1, e.g. 10'),
  wholeNumber,
  repo: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'must look like owner/name'),
  visibility: z.enum(VISIBILITIES, { error: `must be one of ${VISIBILITIES.join(', ')}` }),
  level: z.enum(MEMORY_LEVELS, { error: `must be one of ${MEMORY_LEVELS.join(', ')}` }),
  status: z.enum(MEMORY_STATUSES, { error: `must be one of ${MEMORY_STATUSES.join(', ')}` }),
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a memory id such as m3f9a1c20b7'),
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
