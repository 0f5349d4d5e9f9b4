/**
 * The eval's answer keys and task sets, read here and by the scorer only: the engine learns from
 * the fixes file through the ordinary fixes-file source, which drops the labels unread.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Fix } from '../../src/core/types.js';

export interface Answer {
  primary: string;
  secondary: string | null;
  keys: string[];
}

/** An off-topic task: a commit subject, or an issue with the kind of task it is. */
export interface OfftopicTask {
  task: string;
  kind: string;
}

export function key(repo: string, ref: string): string {
  return `${repo.toLowerCase()}@${ref.toLowerCase()}`;
}

export function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      try {
        return JSON.parse(line) as T;
      } catch {
        throw new Error(`${path}: line ${i + 1} is not valid JSON`);
      }
    });
}

/**
 * A recording of a model's answers (`--readings`, `--abstractions`): one JSON object per line,
 * keyed by the SHA-256 in its `field`; `value` turns a row into what is kept, or throws the reason.
 * Every error names the file and the line.
 */
export function readRecording<T>(
  path: string,
  field: string,
  of: string,
  value: (row: Record<string, unknown>) => T,
): Map<string, T> {
  const rows = new Map<string, T>();
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, at) => {
      if (line.trim() === '') return;
      const where = `${path}:${at + 1}`;
      let row: Record<string, unknown>;
      try {
        row = JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`${where}: not a JSON object`);
      }
      const hash = row[field];
      if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash))
        throw new Error(`${where}: ${field} must be the ${of}'s SHA-256 in hex`);
      try {
        rows.set(hash, value(row));
      } catch (error) {
        throw new Error(`${where}: ${(error as Error).message}`);
      }
    });
  return rows;
}

/** The answer key (labels, and lesson keys when lessons.jsonl is beside the fixes). */
export function readAnswers(path: string): Map<string, Answer> {
  const answers = new Map<string, Answer>();
  for (const r of readJsonl<{ repo: string; sha: string; labels: { primary: string; secondary: string | null } }>(path))
    answers.set(key(r.repo, r.sha), { ...r.labels, keys: [] });
  const lessons = join(dirname(path), 'lessons.jsonl');
  if (existsSync(lessons)) {
    for (const l of readJsonl<{ repo: string; sha: string; key: string; key2: string | null }>(lessons)) {
      const answer = answers.get(key(l.repo, l.sha));
      if (answer) answer.keys = [l.key, l.key2].filter((k): k is string => k !== null);
    }
  }
  return answers;
}

/** An issue as a task: its title and body joined by a blank line, as the eval-dev README says. */
export const issueTask = (issue: { title: string; body?: string }): string =>
  issue.body ? `${issue.title}\n\n${issue.body}` : issue.title;

/**
 * The issue a user would have filed before each fix (symptoms.jsonl beside the fixes), by fix:
 * undefined when the set has none.
 */
export function readSymptoms(fixesPath: string, fixes: readonly Fix[]): Map<Fix, string> | undefined {
  const path = join(dirname(fixesPath), 'symptoms.jsonl');
  if (!existsSync(path)) return undefined;
  const byKey = new Map(
    readJsonl<{ repo: string; sha: string; title: string; body: string }>(path).map((s) => [
      key(s.repo, s.sha),
      issueTask(s),
    ]),
  );
  const tasks = new Map<Fix, string>();
  for (const fix of fixes) {
    const task = byKey.get(key(fix.repo, fix.ref));
    if (task === undefined) throw new Error(`${path}: no issue for ${fix.repo}@${fix.ref.slice(0, 8)}`);
    tasks.set(fix, task);
  }
  return tasks;
}

/** Off-topic commit subjects: `{ subject }` JSON Lines (or plain lines). */
export function readOfftopicSubjects(path: string): OfftopicTask[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => ({
      task: l.trim().startsWith('{') ? (JSON.parse(l) as { subject: string }).subject : l.trim(),
      kind: 'commit',
    }));
}

/** Issues that report no failure (offtopic-issues.jsonl beside the fixes), with their kind. */
export function readOfftopicIssues(fixesPath: string): OfftopicTask[] | undefined {
  const path = join(dirname(fixesPath), 'offtopic-issues.jsonl');
  if (!existsSync(path)) return undefined;
  return readJsonl<{ title: string; body: string; kind: string }>(path).map((i) => ({
    task: issueTask(i),
    kind: i.kind,
  }));
}
