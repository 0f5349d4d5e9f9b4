/**
 * `npm run eval -- --kinds-from-labels`: recall's task reader (the port a model fills in the App)
 * played by the answer key: every bug task is read as a failure needing its labelled routines.
 * What recall would score with a reader that reads every task's routine right: the ceiling of
 * the model's reading, not a figure of the product. Off-topic tasks are not in it (the rules
 * read them, as without the flag).
 */
import type { RoutineKind } from '../../src/core/knowledge/routines.js';
import type { TaskReader, TaskReadingByModel } from '../../src/ports/index.js';
import type { Answer } from './data.js';

export function labelReader(tasks: readonly { task: string; answer: Answer | undefined }[]): TaskReader {
  const readings = new Map<string, TaskReadingByModel>();
  for (const { task, answer } of tasks) {
    if (!answer) continue;
    const routines = [answer.primary, answer.secondary].filter(
      (kind): kind is RoutineKind => kind !== null && kind !== 'regression-test',
    );
    readings.set(task, { taskKind: 'failure', routines });
  }
  return { read: (task) => Promise.resolve(readings.get(task)) };
}
