/**
 * `npm run eval -- --read-by-model --record FILE` keeps a model's readings of the tasks, and
 * `--readings FILE` plays them back offline: the same reading for the same task, the rules for a
 * task with none, and a clear error naming the line of a malformed file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordedReader, recording } from '../../scripts/eval/recorded-readings.js';
import { sha256Hex } from '../../src/core/sha256.js';
import type { TaskReader, TaskReadingByModel } from '../../src/ports/index.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mt-readings-'));
  file = join(dir, 'readings.jsonl');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const AUCKLAND = 'Invoice totals are off for customers in Auckland\n\nThe total shows yesterday.';
const QUESTION = 'How do I set a default timeout for every client?';

/** A model's reader as the eval sees it: a fixed answer per task, none for the others. */
function fakeModel(answers: Record<string, TaskReadingByModel>): TaskReader {
  return { read: (task) => Promise.resolve(answers[task]) };
}

describe('recorded readings', () => {
  it('a recorded run plays back the same reading for each task, offline', async () => {
    const recorder = recording(
      fakeModel({
        [AUCKLAND]: { taskKind: 'failure', routines: ['encoding-locale', 'edge-input'] },
        [QUESTION]: { taskKind: 'question', routines: [] },
      }),
      file,
    );
    await recorder.read(AUCKLAND);
    await recorder.read(AUCKLAND);
    await recorder.read(QUESTION);
    await recorder.read('a task the model could not read');
    // one line per task read, none for the one the model failed on
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);

    const replay = recordedReader(file);
    expect(await replay.read(AUCKLAND)).toEqual({ taskKind: 'failure', routines: ['encoding-locale', 'edge-input'] });
    expect(await replay.read(QUESTION)).toEqual({ taskKind: 'question', routines: [] });
    expect(replay.missing()).toBe(0);
  });

  it('a task without a recorded reading is left to the rules, and counted', async () => {
    writeFileSync(
      file,
      `${JSON.stringify({ task_sha256: sha256Hex(AUCKLAND), task_kind: 'failure', routines: ['encoding-locale'] })}\n`,
    );
    const replay = recordedReader(file);
    expect(await replay.read('Something else entirely')).toBeUndefined();
    expect(await replay.read(`${AUCKLAND} `)).toBeUndefined();
    expect(replay.missing()).toBe(2);
  });

  it('answers are checked as a live model’s are: names in any case, the fallback routine dropped', async () => {
    writeFileSync(
      file,
      `${JSON.stringify({ task_sha256: sha256Hex(AUCKLAND), task_kind: 'Failure', routines: ['Encoding-Locale ', 'regression-test'] })}\n`,
    );
    expect(await recordedReader(file).read(AUCKLAND)).toEqual({ taskKind: 'failure', routines: ['encoding-locale'] });
  });

  it('a malformed file is refused with the line and what is wrong', () => {
    const good = JSON.stringify({ task_sha256: sha256Hex(QUESTION), task_kind: 'question', routines: [] });
    writeFileSync(file, `${good}\n{"task_sha256": "abc", "task_kind": "failure", "routines": []}\n`);
    expect(() => recordedReader(file)).toThrow(`${file}:2: task_sha256 must be the task's SHA-256 in hex`);
    writeFileSync(
      file,
      `${good}\n\n${JSON.stringify({ task_sha256: sha256Hex(AUCKLAND), task_kind: 'bug', routines: [] })}\n`,
    );
    expect(() => recordedReader(file)).toThrow(`${file}:3:`);
    writeFileSync(file, 'not json\n');
    expect(() => recordedReader(file)).toThrow(`${file}:1: not a JSON object`);
    expect(() => recordedReader(join(dir, 'absent.jsonl'))).toThrow('no readings file at');
  });
});
