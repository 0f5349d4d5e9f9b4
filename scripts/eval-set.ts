/**
 * Which labelled set `npm run eval` measures when no fixes file is given: the maintainers'
 * development set when it is beside the checkout (../shared/eval-dev), else the repository's own
 * eval/sets/g; either way it says which, on standard error.
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface EvalSet {
  /** the fixes file (JSON Lines with labels) */
  fixes: string;
  /** the line that says which set this is, and how to pick another */
  note: string;
}

/** The folder of the development set, beside the checkout at `root`. */
export function evalDevFolder(root: string): string {
  return join(root, '..', 'shared', 'eval-dev');
}

export function defaultEvalSet(root: string): EvalSet {
  const dev = join(evalDevFolder(root), 'fixes.jsonl');
  const other = 'pass a fixes file to measure another: npm run eval -- eval/sets/e/fixes.jsonl';
  if (existsSync(dev)) return { fixes: dev, note: `eval: the development set ${dev} (beside this checkout); ${other}` };
  const own = join(root, 'eval', 'sets', 'g', 'fixes.jsonl');
  return {
    fixes: own,
    note:
      `eval: no development set beside this checkout (../shared/eval-dev, the maintainers' own); ` +
      `measuring the repository's set ${relative(root, own)} (docs/quality.md); ${other}`,
  };
}
