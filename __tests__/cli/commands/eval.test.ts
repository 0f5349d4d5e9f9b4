import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../../helpers/run-cli.js';

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'mt-cli-eval-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const cli = (...args: string[]): Promise<CliRun> => runCli(args, tmp);

const fix = (repo: string, sha: string, subject: string, files: string[], primary: string) =>
  JSON.stringify({
    repo,
    sha: sha.repeat(40).slice(0, 40),
    language: 'TypeScript',
    date: '2024-01-01T00:00:00Z',
    subject,
    body: '',
    files,
    tests_changed: true,
    labels: { primary, secondary: 'regression-test' },
  });

/** Two empty-input fixes, and a fix labelled a time-zone fix whose words say empty input: the rules read it wrong on both sides. */
const EMPTY_DATE_FIXES = [
  fix('acme/api', 'a', 'Fix crash on empty request body', ['src/body.ts', 'test/body.test.ts'], 'edge-input'),
  fix('acme/web', 'b', 'Fix crash when the list is empty', ['src/list.ts', 'test/list.test.ts'], 'edge-input'),
  fix('acme/api', 'c', 'Fix crash on empty date string', ['src/date.ts', 'test/date.test.ts'], 'encoding-locale'),
].join('\n');

/** Two lessons (empty input, time zones), each fixed once in each of two repositories. */
const TWO_LESSON_FIXES = [
  fix('acme/api', 'a', 'Fix crash on empty request body', ['src/body.ts', 'test/body.test.ts'], 'edge-input'),
  fix('acme/web', 'b', 'Fix crash when the form input is empty', ['src/form.ts', 'test/form.test.ts'], 'edge-input'),
  fix('acme/api', 'c', 'Fix dates shifted in UTC+13 time zone', ['src/dates.ts', 'test/dates.test.ts'], 'time'),
  fix('acme/web', 'd', 'Fix time zone offset in the date picker', ['src/picker.ts', 'test/picker.test.ts'], 'time'),
];

describe('memory-transfer eval', () => {
  it('runs the evaluation on a fixes file (relative to the working directory) and prints its figures', async () => {
    await writeFile(join(tmp, 'fixes.jsonl'), TWO_LESSON_FIXES.join('\n'));
    const run = await cli('eval', 'fixes.jsonl', '--json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ fixes: 4, repositories: 2, insights: 2 });
    expect(result.tasks.subject.offtopic.answered).toEqual({ commit: 0 });
    expect(result.tasks.issue).toBeUndefined();
    // the other repository's insight of the same lesson comes back first, plainly and leaving each repository out
    for (const score of [result.tasks.subject.plain, result.tasks.subject.leaveOneRepositoryOut]) {
      expect(score.strict).toBeCloseTo(1 / 3);
      expect(score.answered).toBe(1);
    }
    expect(result.sample).toHaveLength(2);
  }, 60_000);

  it('several fixes files are one organization: each set learns from the others, with its own labels', async () => {
    for (const repo of ['api', 'web']) {
      await mkdir(join(tmp, repo));
      const own = TWO_LESSON_FIXES.filter((line) => line.includes(`"acme/${repo}"`));
      await writeFile(join(tmp, repo, 'fixes.jsonl'), own.join('\n'));
    }
    const run = await cli('eval', 'api/fixes.jsonl', 'web/fixes.jsonl', '--json');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ fixes: 4, repositories: 2, insights: 2 });
    // each repository's task finds the other set's fix of the same lesson
    expect(result.tasks.subject.leaveOneRepositoryOut.strict).toBeCloseTo(1 / 3);
    const alone = JSON.parse((await cli('eval', 'api/fixes.jsonl', '--json')).stdout);
    expect(alone).toMatchObject({ fixes: 2, repositories: 1 });
    expect(alone.tasks.subject.leaveOneRepositoryOut.strict).toBe(0);
  }, 60_000);

  it('measures issue-phrased tasks beside the subjects when symptoms.jsonl is there, and off-topic issues by kind', async () => {
    const fixes = [
      fix('acme/api', 'a', 'Fix crash on empty request body', ['src/body.ts', 'test/body.test.ts'], 'edge-input'),
      fix(
        'acme/web',
        'b',
        'Fix crash when the form input is empty',
        ['src/form.ts', 'test/form.test.ts'],
        'edge-input',
      ),
    ];
    await writeFile(join(tmp, 'fixes.jsonl'), fixes.join('\n'));
    const symptom = (line: string, title: string, body: string) => {
      const { repo, sha } = JSON.parse(line) as { repo: string; sha: string };
      return JSON.stringify({ repo, sha, title, body });
    };
    await writeFile(
      join(tmp, 'symptoms.jsonl'),
      [
        symptom(
          fixes[0]!,
          'POST with no body returns 500',
          'Sending an empty body crashes the handler with a TypeError.',
        ),
        symptom(
          fixes[1]!,
          'Submitting the form with nothing typed throws',
          'I expected a validation message, not a crash.',
        ),
      ].join('\n'),
    );
    await writeFile(
      join(tmp, 'offtopic-issues.jsonl'),
      [
        {
          repo: 'acme/api',
          title: 'How do I send an empty body?',
          body: 'Is there a recommended way?',
          kind: 'question',
        },
        {
          repo: 'acme/web',
          title: 'Add a `required` option to form inputs',
          body: 'It would be handy.',
          kind: 'feature',
        },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const run = await cli('eval', 'fixes.jsonl', '--json');
    expect(run.code).toBe(0);
    const { tasks } = JSON.parse(run.stdout);
    for (const score of [tasks.issue.plain, tasks.issue.leaveOneRepositoryOut]) {
      expect(score.answered).toBe(1);
      expect(score.busiest.share).toBeGreaterThan(0);
    }
    expect(tasks.issue.offtopic).toMatchObject({ tasks: 2, answered: { question: 0, feature: 0 }, featuresRead: 1 });
  }, 60_000);

  it('--diagnose says where precision is lost: the routine each task is read with, and each learned fix', async () => {
    await writeFile(join(tmp, 'fixes.jsonl'), EMPTY_DATE_FIXES);
    const run = await cli('eval', 'fixes.jsonl', '--json', '--diagnose');
    expect(run.code).toBe(0);
    const { diagnosis } = JSON.parse(run.stdout);
    expect(diagnosis.taskSide).toMatchObject({ queries: 3, right: 2 / 3 });
    expect(diagnosis.taskMisses).toEqual([{ pair: 'encoding-locale read as edge-input', count: 1 }]);
    expect(diagnosis.learnMisses[0].pair).toBe('encoding-locale learned as edge-input');
    expect(diagnosis.learnSide.right).toBeLessThan(1);
  }, 60_000);

  it('--readings replays recorded readings of the tasks in place of the rules, and a missing file exits 2', async () => {
    await writeFile(join(tmp, 'fixes.jsonl'), EMPTY_DATE_FIXES);
    // a model read the date fix as a time-zone task, where the rules read empty input
    const reading = (task: string, routines: string[]) =>
      JSON.stringify({ task_sha256: createHash('sha256').update(task).digest('hex'), task_kind: 'failure', routines });
    await writeFile(
      join(tmp, 'readings.jsonl'),
      [
        reading('Fix crash on empty request body', ['edge-input']),
        reading('Fix crash when the list is empty', ['edge-input']),
        reading('Fix crash on empty date string', ['encoding-locale']),
      ].join('\n'),
    );
    const run = await cli('eval', 'fixes.jsonl', '--json', '--diagnose', '--readings', 'readings.jsonl');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).diagnosis.taskSide).toMatchObject({ queries: 3, right: 1 });
    // the project's off-topic subjects have no recorded reading: the rules read them, and it is said
    expect(run.stderr).toMatch(
      /^eval: \d+ tasks have no recorded reading in .*readings\.jsonl; the rules read them\n$/,
    );

    const missing = await cli('eval', 'fixes.jsonl', '--readings', 'nowhere.jsonl');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/eval: no readings file at .*nowhere\.jsonl/);
    // a recorded model's abstractions: a malformed file exits 2 naming its line
    await writeFile(join(tmp, 'abstractions.jsonl'), '{"prompt_sha256": "abc", "answer": {}}\n');
    const malformed = await cli('eval', 'fixes.jsonl', '--abstractions', 'abstractions.jsonl');
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(
      /eval: .*abstractions\.jsonl:1: prompt_sha256 must be the request's SHA-256 in hex/,
    );
  }, 60_000);

  it('a missing off-topic file exits 2 naming it, instead of measuring another set', async () => {
    await writeFile(
      join(tmp, 'fixes.jsonl'),
      fix('acme/api', 'a', 'Fix crash on empty body', ['src/a.ts'], 'edge-input'),
    );
    const run = await cli('eval', 'fixes.jsonl', '--offtopic', 'missing.jsonl');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/eval: no off-topic file at .*missing\.jsonl/);
  }, 60_000);

  it('a missing fixes file exits 2 with the reason', async () => {
    const run = await cli('eval', 'nowhere.jsonl');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/eval: no fixes file at .*nowhere\.jsonl/);
  }, 60_000);
});
