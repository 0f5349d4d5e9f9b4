/**
 * `npm run eval` without a fixes file: the development set when it is beside the checkout, else
 * the repository's own eval/sets/g, and a line saying which (a user's clone has no ../shared).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultEvalSet } from '../../scripts/eval-set.js';

let parent: string;
let clone: string;

beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), 'mt-eval-set-'));
  clone = join(parent, 'memory-transfer');
  mkdirSync(clone);
});
afterEach(() => rmSync(parent, { recursive: true, force: true }));

describe('the set `npm run eval` measures by default', () => {
  it("in a user's clone: the repository's own set, saying so", () => {
    const set = defaultEvalSet(clone);
    expect(set.fixes).toBe(join(clone, 'eval', 'sets', 'g', 'fixes.jsonl'));
    expect(set.note).toContain('no development set beside this checkout (../shared/eval-dev');
    expect(set.note).toContain('eval/sets/g/fixes.jsonl');
    expect(set.note).toContain('npm run eval -- eval/sets/e/fixes.jsonl');
  });

  it('beside the development set: that set, named', () => {
    mkdirSync(join(parent, 'shared', 'eval-dev'), { recursive: true });
    writeFileSync(join(parent, 'shared', 'eval-dev', 'fixes.jsonl'), '');
    const set = defaultEvalSet(clone);
    expect(set.fixes).toBe(join(parent, 'shared', 'eval-dev', 'fixes.jsonl'));
    expect(set.note).toContain(`the development set ${set.fixes}`);
  });

  it('the repository ships the set it falls back to', () => {
    const root = join(import.meta.dirname, '..', '..');
    const own = defaultEvalSet(join(tmpdir(), 'no-such-parent', 'x')).fixes.replace(
      join(tmpdir(), 'no-such-parent', 'x'),
      root,
    );
    expect(existsSync(own)).toBe(true);
    expect(existsSync(join(root, 'eval', 'sets', 'g', 'offtopic.jsonl'))).toBe(true);
  });
});
