import { describe, expect, it } from 'vitest';
import { checkSpecificity, concreteReason, leaksSource } from '../../src/abstraction/specificity.js';
import { FACET_TEMPLATES, ROUTINE_TEMPLATES } from '../../src/abstraction/routine-templates.js';
import { LESSONS } from '../../src/core/knowledge/lessons.js';
import type { AbstractedMemory } from '../../src/ports/index.js';
import { makeFix, makeInsight } from './llm-fixtures.js';

const fix = makeFix();

describe('leaksSource', () => {
  it('finds a path, a sub-path and a file name of the fix', () => {
    expect(leaksSource('Edit source/core/normalize-options.ts first', fix)).toEqual([
      'source/core/normalize-options.ts',
    ]);
    expect(leaksSource('Look in core/normalize-options.ts', fix)).toEqual(['core/normalize-options.ts']);
    expect(leaksSource('Run retry.ts again', fix)).toEqual(['retry.ts']);
  });

  it('finds a compound file stem in plain prose', () => {
    expect(leaksSource('The normalize-options step must merge defaults.', fix)).toEqual(['normalize-options']);
  });

  it('finds symbols of the change and the title: camelCase, dotted, calls, backticks', () => {
    expect(leaksSource('Check retryLimit after merging.', fix)).toEqual(['retryLimit']);
    expect(leaksSource('Call normalizeRetryLimit on every input.', fix)).toEqual(['normalizeRetryLimit']);
    expect(leaksSource('Assert on defaults.retry before release.', fix)).toEqual(['defaults.retry']);
    expect(leaksSource('Keep `retryLimit` in sync.', fix)).toEqual(['retryLimit']);
  });

  it('finds a string literal of the fix, quoted or verbatim', () => {
    expect(leaksSource('Expect the error "retry methods missing".', fix)).toEqual(['retry methods missing']);
    expect(leaksSource('Keep exponential backoff with jitter as the default.', fix)).toEqual([
      'exponential backoff with jitter',
    ]);
  });

  it('finds the repository by name', () => {
    expect(leaksSource('As seen in acme/http-kit, defaults matter.', fix)).toEqual(['acme/http-kit']);
  });

  it('does not flag common words that happen to be file stems or keywords', () => {
    const text =
      'When an option accepts a number or an object, add a test that the index of defaults survives; ' +
      'run the retry tests and check `null` input. Node.js 16 and TypeScript behave alike.';
    expect(leaksSource(text, fix)).toEqual([]);
    expect(
      leaksSource('Run `npm test` and check the index page.', makeFix({ files: ['index.js', 'test.js'] })),
    ).toEqual([]);
  });

  it('does not flag ordinary hyphenated words or words that only appear as plain prose in the fix', () => {
    const text = 'Add a non-empty input case; a regression test pins exponential backoff.';
    expect(leaksSource(text, fix)).toEqual([]);
  });

  it('flags a plain source word only in code form', () => {
    const plainFix = makeFix({
      files: ['src/walker.rs'],
      change: '+ fn walker(dir: &Path)',
      title: 'fix walker',
      problem: '',
    });
    expect(leaksSource('A directory walker must skip broken links.', plainFix)).toEqual([]);
    expect(leaksSource('Test `walker` with broken links.', plainFix)).toEqual(['walker']);
    expect(leaksSource('Test walker() with broken links.', plainFix)).toEqual(['walker']);
  });

  it('survives hostile text', () => {
    const hostile = makeFix({ change: '`'.repeat(5000) + '"'.repeat(5000), title: "'''", problem: '((((' });
    expect(leaksSource('`'.repeat(1000) + 'a(b(c(', hostile)).toEqual([]);
    const deep = makeFix({ files: ['x/'.repeat(5000) + 'deep-file.ts'] });
    expect(leaksSource('x/'.repeat(20_000), deep)).toHaveLength(1);
  });
});

describe('checkSpecificity', () => {
  it('passes a repository-agnostic insight untouched', () => {
    const insight = makeInsight(
      'Pin option defaults with a regression test',
      'When an option may be given in short form, verify the defaults still apply.',
      'Add a test that passes the short form and asserts every default field. The fix worked because defaults were merged before overrides.',
    );
    expect(checkSpecificity(insight, fix)).toEqual({ ok: true });
  });

  it('rewrites the examples as it rewrites the content that lists them', () => {
    const insight = {
      ...makeInsight(
        'Test short-form options',
        'Short-form option values must keep the defaults.',
        'Add a case for the number form. Seen in: a change to `source/core/normalize-options.ts` drops the defaults.',
      ),
      examples: ['a change to `source/core/normalize-options.ts` drops the defaults'],
    };
    const result = checkSpecificity(insight, fix);
    expect(result.rewritten?.examples).toEqual(['a change to the affected module drops the defaults']);
    expect(result.rewritten?.content).toBe(
      'Add a case for the number form. Seen in: a change to the affected module drops the defaults.',
    );
  });

  it('rewrites a path in code form to a generic phrase', () => {
    const insight = makeInsight(
      'Test short-form options',
      'Short-form option values must keep the defaults.',
      'After changing `source/core/normalize-options.ts`, add a case to test/retry.ts for the number form.',
    );
    const result = checkSpecificity(insight, fix);
    expect(result.ok).toBe(true);
    expect(result.rewritten?.content).toBe(
      'After changing the affected module, add a case to the affected test file for the number form.',
    );
    expect(result.rewritten?.body).toEqual({
      level: 'insight',
      insight: { title: insight.title, description: insight.description, content: result.rewritten?.content },
    });
    expect(leaksSource(result.rewritten?.content ?? '', fix)).toEqual([]);
  });

  it('drops a backticked symbol and keeps the sentence readable', () => {
    const insight = makeInsight(
      'Check merged defaults',
      'Verify that `normalizeRetryLimit()` keeps defaults.',
      'Add a test.',
    );
    const result = checkSpecificity(insight, fix);
    expect(result.ok).toBe(true);
    expect(result.rewritten?.description).toBe('Verify that the affected code keeps defaults.');
  });

  it('rejects an insight naming a symbol in plain prose, with the reason', () => {
    const insight = makeInsight('Guard retryLimit', 'Check defaults.', 'Assert normalizeRetryLimit keeps the limit.');
    const result = checkSpecificity(insight, fix);
    expect(result.ok).toBe(false);
    expect(result.reason).toBe('names its source: retryLimit, normalizeRetryLimit');
  });

  it('rejects an insight quoting a string of the fix in prose', () => {
    const insight = makeInsight('Keep defaults', 'Keep exponential backoff with jitter.', 'Add a test.');
    expect(checkSpecificity(insight, fix)).toMatchObject({ ok: false, reason: expect.stringContaining('jitter') });
  });

  it('rejects an insight that needs too many rewrites', () => {
    const insight = makeInsight(
      'Edit `index.ts`',
      'Touch `test/retry.ts` and `retryLimit`.',
      'Then `source/core/normalize-options.ts` and `defaults.retry`.',
    );
    expect(checkSpecificity(insight, fix)).toEqual({
      ok: false,
      reason: 'too specific: 5 mentions of its source or of code',
    });
  });

  it('checks workflow steps and summaries but never the trajectory', () => {
    const workflow: AbstractedMemory = {
      level: 'workflow',
      title: 'Verify option defaults',
      description: '',
      content: '1. Edit `index.ts`',
      body: {
        level: 'workflow',
        workflow: { goal: 'Verify option defaults', steps: ['Edit `index.ts`', 'Run tests'] },
      },
      tags: [],
      lesson: null,
      routines: [],
      facet: null,
      examples: [],
      evidence: [],
    };
    const result = checkSpecificity(workflow, fix);
    expect(result.rewritten?.body).toEqual({
      level: 'workflow',
      workflow: { goal: 'Verify option defaults', steps: ['Edit the affected module', 'Run tests'] },
    });
    const summary: AbstractedMemory = {
      ...workflow,
      level: 'summary',
      content: 'x',
      body: { level: 'summary', summary: { task_summary: 'Fix retryLimit', experience_summary: 'ok' } },
    };
    expect(checkSpecificity(summary, fix).ok).toBe(false);
    const trajectory: AbstractedMemory = {
      ...workflow,
      level: 'trajectory',
      content: 'changed source/core/normalize-options.ts, test/retry.ts',
      body: { level: 'trajectory', trajectory: { trace: 'changed source/core/normalize-options.ts' } },
    };
    expect(checkSpecificity(trajectory, fix)).toEqual({ ok: true });
  });
});

describe('an insight names nothing concrete, whoever it belongs to', () => {
  // none of these names anything of makeFix(): they are another project's
  const insightWith = (content: string) =>
    makeInsight('Check a parser on empty input', 'Use this when a parser reads user input.', content);

  it.each([
    ['Check parseInvoiceDate on an empty string.', 'names a code identifier (parseInvoiceDate)'],
    ['Set MAX_RETRIES to zero in a test.', 'names a code identifier (MAX_RETRIES)'],
    ['Call invoice.parseDate with an empty string.', 'names a code identifier (invoice.parseDate)'],
  ])('refuses an identifier in prose: %j', (content, reason) => {
    expect(checkSpecificity(insightWith(content), fix)).toEqual({ ok: false, reason });
  });

  it.each([
    ['Edit src/invoiceDates.js line 12 and add a test.', 'Edit the affected module and add a test.'],
    ['Open lib/dates/parse.py:40 and add a test.', 'Open the affected module and add a test.'],
    ['Call `parseInvoiceDate()` with an empty string.', 'Call the affected code with an empty string.'],
    [
      'Assert the error reads "Invalid date format" for an empty string.',
      'Assert the error reads a specific value for an empty string.',
    ],
    ['Add a case to test_dates.py for an empty string.', 'Add a case to the affected test file for an empty string.'],
    ['Check the branch at L12-L20 with an empty string.', 'Check the branch with an empty string.'],
  ])('generalizes a path, a call, a line or a quoted string in code form: %j', (content, rewritten) => {
    expect(checkSpecificity(insightWith(content), fix).rewritten?.content).toBe(rewritten);
  });

  it.each([
    'Run `npm ci` after editing package.json, and commit the lockfile.',
    'Test with Node.js and PostgreSQL, on macOS and Windows, through GitHub Actions.',
    'Import the package both as an ES module and as CommonJS, as ECMAScript tooling does.',
    'Use JSON.parse on the raw body, e.g. when it is empty, and a fake timer instead of setTimeout.',
    'Cover the read/write path and the CI/CD job; keep Given/When/Then steps readable.',
    'Check the "empty" case and the test(s) that cover it; don\'t assume the user\'s locale.',
    'Test redirect targets such as //evil.example and paths with ../ in them.',
    'A timeout of 30 s must fail the check.',
  ])('accepts platform vocabulary and prose: %j', (content) => {
    expect(checkSpecificity(insightWith(content), fix)).toEqual({ ok: true });
    expect(concreteReason([content])).toBeUndefined();
  });

  it("names nothing concrete in any phrase of the rules' catalog (lessons and routine templates)", () => {
    const strings = (value: unknown): string[] =>
      typeof value === 'string'
        ? [value]
        : Array.isArray(value)
          ? value.flatMap(strings)
          : value && typeof value === 'object' && !(value instanceof RegExp)
            ? Object.values(value).flatMap(strings)
            : [];
    const phrases = strings([LESSONS, ROUTINE_TEMPLATES, FACET_TEMPLATES]);
    expect(phrases.length).toBeGreaterThan(300);
    expect(phrases.filter((phrase) => concreteReason([phrase]) !== undefined)).toEqual([]);
  });

  it('checks only the insight level: a workflow keeps its concrete steps of another project', () => {
    const workflow: AbstractedMemory = { ...insightWith('Edit src/invoiceDates.js line 12.'), level: 'workflow' };
    expect(checkSpecificity(workflow, fix)).toEqual({ ok: true });
  });

  it('concreteReason (pool files) refuses rather than rewrites, naming what it found', () => {
    expect(concreteReason(['Edit `src/invoiceDates.js` at line 12.'])).toBe(
      'names a file path (`src/invoiceDates.js`, at line 12)',
    );
  });
});
