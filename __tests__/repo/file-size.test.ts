// No source file under src/ is over MAX_LINES lines: a module that grows past it is split by role
// (docs/architecture.md).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = join(import.meta.dirname, '..', '..', 'src');
const MAX_LINES = 600;

/** lines as `wc -l` counts them */
function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** "src/x.ts has 601 lines (at most 600)" for each file over the limit that is not a known exception */
function oversized(files: { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) => {
    const lines = lineCount(text);
    if (lines <= MAX_LINES) return [];
    return [`${path} has ${lines} lines (at most ${MAX_LINES}: split it by role)`];
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : [path];
  });
}

describe('the size of source files', () => {
  it(`no file under src/ is over ${MAX_LINES} lines`, () => {
    const files = sourceFiles(src).map((path) => ({
      path: `src/${relative(src, path).split(/[\\/]/).join('/')}`,
      text: readFileSync(path, 'utf8'),
    }));
    expect(files.length).toBeGreaterThan(100);
    expect(oversized(files)).toEqual([]);
  });

  it('names a file over the limit, counting lines as wc -l does', () => {
    const lines = (n: number) => 'x\n'.repeat(n);
    expect(
      oversized([
        { path: 'src/store/big.ts', text: lines(601) },
        { path: 'src/store/edge.ts', text: lines(600) },
        { path: 'src/store/unterminated.ts', text: `${lines(600)}x` },
      ]),
    ).toEqual([
      'src/store/big.ts has 601 lines (at most 600: split it by role)',
      'src/store/unterminated.ts has 601 lines (at most 600: split it by role)',
    ]);
  });
});
