import { describe, expect, it } from 'vitest';
import { abstractWithRules, createRulesAbstractor, RULES_MODEL } from '../../src/abstraction/rules-abstractor.js';
import { checkSpecificity, leaksSource } from '../../src/abstraction/specificity.js';
import type { Fix } from '../../src/core/types.js';
import type { AbstractedMemory } from '../../src/services/ports.js';
import { sampleFix } from '../helpers/sample-fix.js';

function insightOf(fix: Fix): AbstractedMemory {
  const insight = abstractWithRules(fix).memories.find((m) => m.level === 'insight');
  if (!insight) throw new Error('no insight');
  return insight;
}

const text = (m: AbstractedMemory) => [m.title, m.description, m.content].join('\n');

describe('rules abstractor', () => {
  it('produces the four levels of the research, with their structured bodies', async () => {
    const abstraction = await createRulesAbstractor().abstract(sampleFix());
    expect(abstraction.model).toBe(RULES_MODEL);
    expect(abstraction.memories.map((m) => m.level)).toEqual(['trajectory', 'workflow', 'summary', 'insight']);
    const [trajectory, workflow, summary, insight] = abstraction.memories;
    expect(trajectory?.body.level === 'trajectory' && trajectory.body.trajectory.trace).toContain('src/body-parser.ts');
    expect(workflow?.body.level === 'workflow' && workflow.body.workflow.steps.length).toBeGreaterThan(2);
    expect(summary?.body.level === 'summary' && summary.body.summary.task_summary).toBe(
      'Fix crash when the request body is empty',
    );
    expect(insight?.body).toEqual({
      level: 'insight',
      insight: { title: insight?.title, description: insight?.description, content: insight?.content },
    });
  });

  it('is deterministic', () => {
    expect(abstractWithRules(sampleFix())).toEqual(abstractWithRules(sampleFix()));
  });

  it('turns a changed test into evidence and a check tag', () => {
    const insight = insightOf(sampleFix());
    expect(insight.evidence).toContain('a test changed in the same change');
    expect(insight.tags).toContain('check:unit');
    expect(insightOf(sampleFix({ testsChanged: false, files: ['src/a.ts'] })).evidence).toContain(
      'no test changed with the fix',
    );
  });

  it.each([
    ['lint', 'routine:lint-format'],
    ['types', 'routine:type-check'],
    ['build', 'routine:build-packaging'],
  ] as const)('a %s check that went red then green → %s', (check, tag) => {
    const insight = insightOf(
      sampleFix({
        title: 'Repair the pipeline',
        files: ['src/a.ts'],
        testsChanged: false,
        signals: [{ kind: 'check-red-green', check, name: 'ci / verify' }],
      }),
    );
    expect(insight.tags[0]).toBe(tag);
    expect(insight.tags).toContain(`check:${check}`);
    expect(insight.evidence).toContain(`a check of kind ${check} failed then passed`);
    expect(text(insight)).not.toContain('ci / verify');
  });

  it.each([
    [['.github/workflows/release.yml'], 'routine:ci-config', 'the change touched CI configuration'],
    [['Cargo.toml', 'Cargo.lock'], 'routine:dependency-compat', 'the change touched dependency manifests or lockfiles'],
    [['types/index.d.ts'], 'routine:type-check', 'the change touched type declarations'],
    [['migrations/20240101_users.sql'], 'routine:data-migration', 'the change touched database migrations or schema'],
    [
      ['src/locales/de.json', 'src/locales/fr.json'],
      'routine:encoding-locale',
      'the change touched locale or time zone data',
    ],
  ])('files %j → %s', (files, tag, evidence) => {
    const insight = insightOf(sampleFix({ title: 'Repair it', files, testsChanged: false }));
    expect(insight.tags[0]).toBe(tag);
    expect(insight.evidence).toContain(evidence);
  });

  it.each([
    ['Wrong hour for users in UTC+13 after the DST change', 'routine:encoding-locale', /time zone/],
    ['Race between close and write drops the last chunk', 'routine:concurrency-async', /concurrently/],
    ['Backslash path separators break on Windows', 'routine:platform-compat', /operating system/],
    ['Socket listeners leak on every retry', 'routine:performance-resource', /listeners/],
    ['Shell injection through an unsanitized file name', 'routine:security-validation', /hostile/],
    ['Error from the callback is swallowed', 'routine:error-handling', /original error/],
    ['Null value crashes the formatter', 'routine:edge-input', /empty string/],
    ['Default of the verbose flag ignores the environment variable', 'routine:config-env', /environment variable/],
    ['Breaking change in the public API restored', 'routine:api-compat', /public API/],
  ])('problem text %j → %s', (title, tag, advice) => {
    const insight = insightOf(sampleFix({ title, files: ['lib/thing.js', 'test/thing.js'] }));
    expect(insight.tags[0]).toBe(tag);
    expect(insight.content).toMatch(advice);
  });

  it.each([
    [['cmd/root.go', 'cmd/root_test.go'], 'Go', ['lang:go', 'tool:go'], /go test/],
    [['src/lib.rs'], 'Rust', ['lang:rust', 'tool:cargo'], /cargo test/],
    [['pkg/core.py', 'tests/test_core.py'], 'Python', ['lang:python', 'tool:pytest'], /pytest/],
    [['lib/index.js', 'yarn.lock'], 'JavaScript', ['lang:javascript', 'tool:yarn'], /yarn test/],
  ])('ecosystem of %j', (files, language, tags, hint) => {
    const insight = insightOf(sampleFix({ title: 'Handle an empty list', files, language }));
    for (const tag of tags) expect(insight.tags).toContain(tag);
    expect(insight.content).toMatch(hint);
  });

  it.each([
    ['Wrong hour after the DST change in UTC+13', 'facet:encoding-locale/time', /time zone/],
    ['Garbled output for emoji in UTF-8 file names', 'facet:encoding-locale/text', /multi-byte/],
    ['Wrong month names in the German locale', 'facet:encoding-locale/locale', /non-English locale/],
    ['Empty list crashes the report', 'facet:edge-input/empty', /empty string/],
    ['Off-by-one at the last index of the page', 'facet:edge-input/boundary', /one below and one above/],
    ['Upload keeps running after the user cancels it', 'facet:concurrency-async/cancel', /cancel, time out/],
    ['Error written to stdout instead of stderr, exit code 0', 'facet:error-handling/report', /output stream/],
  ])('narrows %j to %s', (title, facet, advice) => {
    const insight = insightOf(sampleFix({ title, files: ['lib/thing.js', 'test/thing.js'] }));
    expect(insight.tags).toContain(facet);
    expect(insight.content).toMatch(advice);
  });

  it('adds a second routine when the fix clearly has two', () => {
    const insight = insightOf(
      sampleFix({ title: 'Empty NO_COLOR environment variable enables colors', files: ['src/main.rs'] }),
    );
    expect(insight.tags.filter((t) => t.startsWith('routine:')).sort()).toEqual([
      'routine:config-env',
      'routine:edge-input',
    ]);
    expect(insight.content).toMatch(/Where .* are involved as well/);
  });

  it('names no path, file name, symbol or string of the fix in any insight', () => {
    const fixes = [
      sampleFix({
        title: 'Fix `parseRetryAfter()` returning NaN for "Retry-After: 0" in src/http/retry-after.ts',
        problem:
          'When `opts.retry.limit` is 0 the `RetryAfterError` is thrown with message "retry budget exhausted early".',
        change: "-  if (!header) return\n+  if (header === undefined) return defaultDelay('retry')",
        files: ['src/http/retry-after.ts', 'test/http/retry-after.test.ts', 'package.json'],
        signals: [
          {
            kind: 'check-red-green',
            check: 'unit',
            name: 'test (ubuntu, 20)',
            excerpt: 'AssertionError: expected NaN to equal 0',
          },
        ],
      }),
      sampleFix({ title: 'Fix DST bug in `addHours`', files: ['src/add_hours/index.js', 'src/add_hours/test.js'] }),
      sampleFix({
        title: 'fix: ./flag_impl.go:221:29: method FlagBase.IsDefaultVisible already declared',
        files: ['flag_impl.go'],
        language: 'Go',
      }),
    ];
    for (const fix of fixes) {
      const insight = insightOf(fix);
      expect(leaksSource(text(insight), fix)).toEqual([]);
      expect(checkSpecificity(insight, fix)).toEqual({ ok: true });
      for (const file of fix.files) expect(text(insight)).not.toContain(file.split('/').pop()!);
      const names = /retry|flag_?impl|add_?hours|FlagBase|IsDefaultVisible|NaN|budget|ubuntu|Assertion/i;
      expect(text(insight)).not.toMatch(names);
      expect(insight.evidence.join('\n')).not.toMatch(names);
    }
  });
});
