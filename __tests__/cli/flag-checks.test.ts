/**
 * `recall` reads its flags with the plain checks of src/cli/flag-checks.ts (no zod on its path);
 * the other commands with zod schemas built on the same checks: one message for one mistake.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_TASK_LENGTH as API_MAX_TASK_LENGTH } from '../../src/core/recall-api.js';
import { MAX_TASK_LENGTH } from '../../src/core/retrieval/recall-limits.js';
import { MEMORY_LEVELS, VISIBILITIES } from '../../src/core/types.js';
import {
  checkFlags,
  matching,
  oneOf,
  optional,
  REPO_MESSAGE,
  REPO_PATTERN,
  text,
  wholeNumber,
  withDefault,
  yes,
} from '../../src/cli/flag-checks.js';
import { flag, parseFlags } from '../../src/cli/flags.js';

const checks = {
  k: withDefault(wholeNumber(1, 50, 3), 3),
  level: withDefault(oneOf(MEMORY_LEVELS), 'insight'),
  repo: optional(matching(REPO_PATTERN, REPO_MESSAGE)),
  visibility: optional(oneOf(VISIBILITIES)),
  failEmpty: yes,
  file: optional(text(1)),
};
const shape = {
  k: flag.wholeNumber(1, 50, 3).default(3),
  level: flag.level.default('insight'),
  repo: flag.repo.optional(),
  visibility: flag.visibility.optional(),
  failEmpty: z.boolean().optional(),
  file: z.string().min(1).optional(),
};

function message(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
}

describe('flag checks without zod', () => {
  it('read the values zod reads, defaults included', () => {
    for (const values of [{}, { k: '7', level: 'summary', repo: 'acme/api', visibility: 'public', failEmpty: true }]) {
      expect(checkFlags(checks, values)).toEqual(parseFlags(shape, values));
    }
  });

  it.each([
    [{ k: '0' }],
    [{ k: 'abc' }],
    [{ k: '51' }],
    [{ k: '2.5' }],
    [{ repo: 'nope' }],
    [{ level: 'everything' }],
    [{ visibility: 'secret' }],
    [{ file: '' }],
    [{ k: '0', repo: 'nope' }],
  ])('give the message the zod schemas give for %j', (values) => {
    const plain = message(() => checkFlags(checks, values));
    expect(plain).toMatch(/^--[a-z-]+: /);
    if (!('file' in values)) expect(plain).toBe(message(() => parseFlags(shape, values)));
  });

  it('name the flag in kebab case', () => {
    expect(message(() => checkFlags({ failEmpty: yes }, { failEmpty: 'x' }))).toBe('--fail-empty: takes no value');
  });

  it('recall reads the task limit of the recall API', () => {
    expect(MAX_TASK_LENGTH).toBe(API_MAX_TASK_LENGTH);
  });
});
