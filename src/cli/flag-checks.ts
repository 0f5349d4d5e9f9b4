/**
 * Flag checks without zod: the messages every command gives for a bad flag value, as plain
 * functions. `recall`, the command that must start fast, reads its flags with these (zod alone
 * takes about as long to import as a bare `node -e 0` runs); ./flags.ts wraps the same checks in
 * zod schemas for the other commands, so a message reads the same in every command.
 */
import { InputError } from '../core/errors.js';

/** A bad value: the message that follows `--flag: `. */
export class FlagProblem extends Error {}

/** A flag's check: the parsed value, or a FlagProblem. */
export type Check<T> = (value: unknown) => T;

export const REPO_PATTERN = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
export const REPO_MESSAGE = 'must look like owner/name';
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const ID_MESSAGE = 'must be a memory id such as m3f9a1c20b7';

/**
 * A whole number in a range, from a flag's text: one message naming the allowed range, an example
 * and what was given (`--max: must be a whole number of at least 1, e.g. 100; got "abc"`).
 */
export function wholeNumber(min: number, max: number | undefined, example: number): Check<number> {
  const form = max === undefined ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`;
  return (value) => {
    const text = String(value).trim();
    const n = typeof value === 'number' ? value : /^[+-]?\d+$/.test(text) ? Number(text) : Number.NaN;
    if (Number.isSafeInteger(n) && n >= min && (max === undefined || n <= max)) return n;
    throw new FlagProblem(`must be ${form}, e.g. ${example}; got ${JSON.stringify(text)}`);
  };
}

/** One of a list of words (`must be one of public, internal, private`). */
export function oneOf<const T extends readonly string[]>(values: T): Check<T[number]> {
  return (value) => {
    if (typeof value === 'string' && values.includes(value)) return value as T[number];
    throw new FlagProblem(`must be one of ${values.join(', ')}`);
  };
}

/** Text matching a pattern. */
export function matching(pattern: RegExp, message: string): Check<string> {
  return (value) => {
    if (typeof value === 'string' && pattern.test(value)) return value;
    throw new FlagProblem(message);
  };
}

/** Any text, at least `min` characters long. */
export function text(min = 0): Check<string> {
  return (value) => {
    if (typeof value !== 'string') throw new FlagProblem('must be text');
    if (value.length < min) throw new FlagProblem(`must be at least ${min} character${min === 1 ? '' : 's'} long`);
    return value;
  };
}

/** A switch: commander gives true when it is present. */
export const yes: Check<boolean | undefined> = (value) => {
  if (value === undefined || typeof value === 'boolean') return value;
  throw new FlagProblem('takes no value');
};

/** The check, or undefined when the flag is absent. */
export function optional<T>(check: Check<T>): Check<T | undefined> {
  return (value) => (value === undefined ? undefined : check(value));
}

/** The check, or `fallback` when the flag is absent. */
export function withDefault<T>(check: Check<T>, fallback: T): Check<T> {
  return (value) => (value === undefined ? fallback : check(value));
}

/**
 * Parses commander's option values with one check per flag; names the flag of the first bad one
 * (`--max: must be …`). Keys are camelCase option names.
 */
export function checkFlags<T extends Record<string, Check<unknown>>>(
  checks: T,
  values: Record<string, unknown>,
): { [K in keyof T]: ReturnType<T[K]> } {
  const parsed: Record<string, unknown> = {};
  for (const [key, check] of Object.entries(checks)) {
    try {
      const value = check(values[key]);
      if (value !== undefined) parsed[key] = value;
    } catch (error) {
      if (!(error instanceof FlagProblem)) throw error;
      throw new InputError(`--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${error.message}`);
    }
  }
  return parsed as { [K in keyof T]: ReturnType<T[K]> };
}
