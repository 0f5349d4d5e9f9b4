/**
 * Readings of tasks recorded once and replayed: `npm run eval -- --read-by-model --record FILE`
 * writes the configured model's reading of every task it reads; `npm run eval -- --readings FILE`
 * plays them back as recall's task reader, offline, so a model's figures can be measured again
 * (after a change of the ranking, on another machine, in CI) without calling it.
 *
 * One JSON line per task: `{ "task_sha256", "task_kind", "routines" }`, keyed by the SHA-256 of
 * the task as recall is given it. Each answer is checked as a live model's is (the reader's own
 * schema); a task with no line is read by the rules, as when a model fails.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { ValidTaskAnswerSchema } from '../../src/abstraction/llm-task-reader.js';
import { sha256Hex } from '../../src/core/sha256.js';
import type { TaskReader, TaskReadingByModel } from '../../src/ports/index.js';
import { readRecording } from './data.js';

/** A reader that plays back the readings of FILE; `missing` counts the tasks it had none for. */
export function recordedReader(path: string): TaskReader & { missing: () => number } {
  if (!existsSync(path)) throw new Error(`no readings file at ${path} (--readings takes a file --record wrote)`);
  const readings = readRecording(path, 'task_sha256', 'task', (row): TaskReadingByModel => {
    const answer = ValidTaskAnswerSchema.safeParse(row);
    if (!answer.success) throw new Error(answer.error.issues[0]?.message ?? 'not a reading');
    return { taskKind: answer.data.task_kind, routines: answer.data.routines };
  });
  const unread = new Set<string>();
  return {
    read(task) {
      const hash = sha256Hex(task);
      const reading = readings.get(hash);
      if (!reading) unread.add(hash);
      return Promise.resolve(reading);
    },
    missing: () => unread.size,
  };
}

/** The reader, with every reading it gives written to FILE (appended) as `--readings` reads it back. */
export function recording(reader: TaskReader, path: string): TaskReader {
  const written = new Set<string>();
  return {
    async read(task) {
      const reading = await reader.read(task);
      const hash = sha256Hex(task);
      if (reading && !written.has(hash)) {
        written.add(hash);
        const row = { task_sha256: hash, task_kind: reading.taskKind, routines: reading.routines };
        appendFileSync(path, `${JSON.stringify(row)}\n`);
      }
      return reading;
    },
  };
}
