/**
 * What kind of task a text is: a failure, a feature request, a question, documentation, a chore or
 * a discussion. Insights are validation routines: they help whoever repairs a failure (and an agent
 * building a feature may run them); the App comments on failures only.
 *
 * A failure is recognised by its symptoms, not by the words "fix" or "bug": an exception or error
 * line, a wrong value, a hang, slowness with numbers, growth, a warning printed, a red CI step.
 * The other kinds are recognised by the shape of their sentences: a question's interrogative
 * opening or question mark, a request's "add …" / "it would be nice", a proposal's "should we".
 * A strong symptom outweighs the shape ("Why does my app hang?" is a failure); a word of failure
 * in passing does not ("How do I get the error message?" is a question).
 *
 * The cue tables are in knowledge/task-kinds.ts; this module only weighs them. Pure: no I/O.
 */
import {
  ENDS_ASKING,
  EXPECTATION,
  FAILURE_CUES,
  KIND_CUES,
  NO_FAILURE,
  PURPOSE,
  REPAIR_SUBJECT,
  REPORT_TITLE,
  REPORT_TITLE_WITH_BODY,
  REQUEST_TITLE,
  STATUS_QUO,
  SUBORDINATE,
  WISH,
  type KindCue,
} from '../knowledge/task-kinds.js';
import { withoutCode } from '../text.js';
import { taskFocus } from './task-focus.js';

import { TASK_KINDS, type TaskKind } from '../types.js';

export { TASK_KINDS, type TaskKind };

/** What the App comments on: failures only (a feature request is never answered as a bug). */
export const COMMENT_TASK_KINDS: readonly TaskKind[] = ['failure'];
/** What an agent is given routines for (the Action, MCP, the CLI): a failure, or a feature it builds. */
export const AGENT_TASK_KINDS: readonly TaskKind[] = ['failure', 'feature'];
type OtherKind = Exclude<TaskKind, 'failure'>;

export interface TaskKindReading {
  kind: TaskKind;
  /** the evidence of a failure (summed cue weights) */
  failure: number;
  /** the strongest other kind and its evidence */
  other?: { kind: OtherKind; score: number };
}

/** A symptom this strong is a failure whatever the sentence's shape. */
const STRONG = 1.6;
/**
 * An issue (a title and a body) that has none of the other kinds' shapes needs less evidence to be a
 * report of a failure: people file issues about failures most of all, in plain prose ("Lines 9999 and
 * 10001 wrap correctly", "in a terminal the full text shows").
 */
const SHAPELESS_ISSUE_FAILURE = 0.6;
/**
 * What a title that states a behaviour adds to an issue with a body: enough alone for one that
 * has no shape of another kind (SHAPELESS_ISSUE_FAILURE), not against a request's or a question's.
 */
const TITLE_STATEMENT_WITH_BODY = SHAPELESS_ISSUE_FAILURE;
/** A one-line task that asks, other than why something happens: no commit subject or PR title does. */
const ONE_LINE_QUESTION = new RegExp(String.raw`^(?!why\b).*${ENDS_ASKING}`);
/** What a reporter's "nothing fails" takes off the evidence of a failure. */
const DISCLAIMED = 1.5;

function scoreCues(cues: readonly KindCue[], title: string, body: string, raw: string): number {
  // an issue has a body; a commit subject or a PR title is one line
  const issue = raw.trim().includes('\n');
  const text: Record<NonNullable<KindCue['on']> | 'all', string> = {
    title,
    issueTitle: issue ? title : '',
    raw,
    all: `${title}\n${body}`,
  };
  let score = 0;
  for (const cue of cues) if (cue.pattern.test(text[cue.on ?? 'all'])) score += cue.weight;
  return score;
}

/** The task's title (its first line) and body (the rest), lower-cased. */
function split(task: string): { title: string; body: string } {
  const text = task.toLowerCase().trim();
  const at = text.indexOf('\n');
  return at < 0 ? { title: text, body: '' } : { title: text.slice(0, at).trim(), body: text.slice(at + 1) };
}

/**
 * The task as an observation: its body without the sentences that ask or wish for something, and without
 * the failures named as what something avoids. The title stays whole (a commit subject's "avoid a
 * crash" is what it repairs) unless it asks for something or asks a question (REQUEST_TITLE).
 */
function observed(task: string): string {
  const at = task.indexOf('\n');
  if (at < 0) return task;
  const heading = task.slice(0, at).toLowerCase().trim();
  const asks = REQUEST_TITLE.test(heading);
  const sentences = task.slice(at + 1).split(/(?<=[.!?])\s+|\n/);
  const lower = sentences.map((sentence) => sentence.toLowerCase());
  const expects = lower.map((sentence) => EXPECTATION.test(sentence));
  // the status quo is no symptom where the issue asks for something: in its title, or in a sentence that wishes
  const wishes = lower.some((sentence, i) => WISH.test(sentence) && !expects[i]);
  const body = sentences
    .filter((_, i) => {
      if ((asks || wishes) && STATUS_QUO.test(lower[i]!)) return false;
      return !(WISH.test(lower[i]!) || /\?\W*$/.test(lower[i]!)) || expects[i];
    })
    .join('\n')
    .replace(PURPOSE, ' ');
  const title = asks ? '' : task.slice(0, at);
  return `${title}\n${body}`;
}

export function readTaskKindOf(task: string): TaskKindReading {
  const { title, body } = split(task);
  const raw = task;
  const seen = observed(task);
  const symptoms = split(seen);
  let failure = scoreCues(FAILURE_CUES, symptoms.title, symptoms.body, seen);
  // the reporter says nothing failed
  if (NO_FAILURE.test(seen.toLowerCase())) failure = Math.max(0, failure - DISCLAIMED);
  // a one-line task is a commit subject or a PR title, which says what it repairs ("fix", "handle",
  // "do not swallow"): read by the subject rules, unless it repairs prose (a typo, the docs)
  // (no commit subject asks a question: "How do I rerun the tests that failed?" asks; a "why" question tells a symptom)
  if (body === '' && taskFocus(title).describesFailure && !ONE_LINE_QUESTION.test(title))
    failure += REPAIR_SUBJECT.test(title) ? STRONG : 1;
  // a title alone that states what the code does now reports it
  else if (!REQUEST_TITLE.test(title) && statesBehaviour(title, body === '' ? REPORT_TITLE : REPORT_TITLE_WITH_BODY))
    failure += body === '' ? 1 : TITLE_STATEMENT_WITH_BODY;
  let other: TaskKindReading['other'];
  // a request's or a question's shape is in its prose: a word inside code (a file named "roadmap") is none
  const prose = split(withoutCode(task));
  for (const [kind, cues] of Object.entries(KIND_CUES) as [OtherKind, readonly KindCue[]][]) {
    const score = scoreCues(cues, prose.title, prose.body, raw);
    if (score > 0 && (!other || score > other.score)) other = { kind, score };
  }
  const round = (n: number) => Math.round(n * 100) / 100;
  failure = round(failure);
  if (other) other.score = round(other.score);
  const kind: TaskKind =
    other && other.score >= 1 && failure < STRONG + 0.75 * Math.max(0, other.score - 1)
      ? other.kind
      : failure >= (other || body === '' ? 1 : SHAPELESS_ISSUE_FAILURE)
        ? 'failure'
        : (other?.kind ?? 'discussion');
  return { kind, failure, ...(other ? { other } : {}) };
}

/** The (lower-cased) title's main clause states a behaviour (REPORT_TITLE), before any condition or purpose. */
function statesBehaviour(title: string, shape: RegExp): boolean {
  const at = title.search(SUBORDINATE);
  return shape.test(at < 0 ? title : title.slice(0, at).trimEnd());
}

/** The kind of task a text is (see readTaskKindOf for the evidence). */
export function readTaskKind(task: string): TaskKind {
  return readTaskKindOf(task).kind;
}

const SILENCE: Record<OtherKind, string> = {
  feature: 'the task is a feature request, and the App answers failures only',
  question: 'the task is a question, and validation routines only help fix a failure',
  docs: 'the task is documentation, and validation routines only help fix a failure',
  chore:
    'the task is a chore (a release, a version bump, CI housekeeping), and validation routines only help fix a failure',
  discussion: 'the task describes no failure (a proposal or a discussion), and validation routines only help fix one',
};

/** Why recall stays silent on a task of this kind, or undefined when it answers it. */
export function silenceOf(kind: TaskKind, answered: readonly TaskKind[] = COMMENT_TASK_KINDS): string | undefined {
  return kind === 'failure' || answered.includes(kind) ? undefined : SILENCE[kind];
}

/** Why recall stays silent on a task, or undefined when it answers it. */
export function silenceReason(task: string, answered: readonly TaskKind[] = COMMENT_TASK_KINDS): string | undefined {
  return silenceOf(readTaskKind(task), answered);
}
