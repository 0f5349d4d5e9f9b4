import { taskFocus } from './task-focus.js';

export const TASK_KINDS = ['failure', 'feature', 'question', 'docs', 'chore', 'discussion'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

export function readTaskKind(task: string): TaskKind {
  return taskFocus(task).describesFailure ? 'failure' : 'discussion';
}
