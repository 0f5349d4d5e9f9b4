import { describe, expect, it } from 'vitest';
import { abstractWithRules, createRulesAbstractor, RULES_MODEL } from '../../src/abstraction/rules-abstractor.js';
import { checkSpecificity, leaksSource } from '../../src/abstraction/specificity.js';
import type { Fix } from '../../src/core/types.js';
import type { AbstractedMemory } from '../../src/ports/index.js';
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
    ['Wrong hour for users in UTC+13 after the DST change', 'routine:encoding-locale', 'lesson:dst-transition'],
    ['Race between close and write drops the last chunk', 'routine:concurrency-async', 'lesson:shared-mutable-state'],
    ['Backslash path separators break on Windows', 'routine:platform-compat', 'lesson:windows-paths'],
    ['Socket listeners leak on every retry', 'routine:performance-resource', 'lesson:listener-leak'],
    [
      'Shell injection through an unsanitized command string',
      'routine:security-validation',
      'lesson:shell-command-injection',
    ],
    ['Error from the callback is swallowed', 'routine:error-handling', 'lesson:error-reaches-caller'],
    ['Null value crashes the formatter', 'routine:edge-input', 'lesson:missing-part-crash'],
    [
      'An empty NO_COLOR environment variable is treated as set',
      'routine:config-env',
      'lesson:environment-variable-states',
    ],
    ['Breaking change in the public API restored', 'routine:api-compat', 'lesson:public-behaviour-regression'],
  ])('problem text %j names its lesson: %s, %s', (title, kind, lesson) => {
    const insight = insightOf(sampleFix({ title, files: ['lib/thing.js', 'test/thing.js'] }));
    expect(insight.tags[0]).toBe(kind);
    expect(insight.tags).toContain(lesson);
  });

  it('states the lesson itself, not its category: title, the check, and the fix as an example in general words', () => {
    const insight = insightOf(
      sampleFix({ title: 'Fix socket `connect` listener memory leak (#406)', files: ['index.js', 'test/agent.js'] }),
    );
    expect(insight.title).toBe('Listeners must be removed when their work ends: the listener count must stay flat');
    expect(insight.content).toMatch(/listener count returns to the starting value/);
    expect(insight.content).toMatch(/Seen in: socket connect listener memory leak\.$/);
    expect(text(insight)).not.toMatch(/#406|`/);
  });

  it('writes what every level teaches as fields, the tags saying the same for people; the insight lists its example', () => {
    const fix = sampleFix({
      title: 'Fix socket `connect` listener memory leak (#406)',
      files: ['index.js', 'test/agent.js'],
    });
    const abstraction = abstractWithRules(fix);
    expect(abstraction.writer).toBe('rules');
    const identity = {
      lesson: 'listener-leak',
      routines: ['performance-resource'],
      facet: 'performance-resource/leak',
    };
    for (const memory of abstraction.memories) {
      expect(memory).toMatchObject(identity);
      expect(memory.tags.slice(0, 3)).toEqual([
        'routine:performance-resource',
        'facet:performance-resource/leak',
        'lesson:listener-leak',
      ]);
      expect(memory.examples).toEqual(memory.level === 'insight' ? ['socket connect listener memory leak'] : []);
    }
    // a fix whose condition says nothing in general words: no example, and none in the content
    const terse = abstractWithRules(sampleFix({ title: 'Fix bug' })).memories.find((m) => m.level === 'insight');
    if (terse) expect([terse.examples, /Seen in/.test(terse.content)]).toEqual([[], false]);
  });

  it('gives three fixes that share a routine kind three different lessons', () => {
    const titles = [
      'Option set to false is ignored and replaced by the default',
      'Crash when the config file is empty',
      'Null search appended to the URL as the text null',
    ];
    const lessons = titles.map((title) => insightOf(sampleFix({ title })).tags.find((t) => t.startsWith('lesson:')));
    expect(lessons).toEqual(['lesson:falsy-value-as-absent', 'lesson:empty-input', 'lesson:absent-value-stringified']);
    expect(new Set(titles.map((title) => insightOf(sampleFix({ title })).title)).size).toBe(3);
  });

  it('puts a fix the catalog does not name under its kind, its condition as an example, never in a glued title', () => {
    const insight = insightOf(
      sampleFix({ title: 'Fix query option re-applied on every followed redirect', files: ['src/a.ts', 'test/a.ts'] }),
    );
    expect(insight.tags.some((t) => t.startsWith('lesson:'))).toBe(false);
    expect(insight.title).not.toMatch(/redirect|:/i);
    expect(insight.title).not.toMatch(/^(fix|update|add)\b/i);
    expect(insight.content).toMatch(/Seen in: query option re-applied on every followed redirect\.$/);
  });

  it('lets a strong word of the fix (an architecture) outrank a lesson named by one weak word', () => {
    const insight = insightOf(
      sampleFix({ title: 'Fix checksum test failing on 32-bit targets', files: ['src/sum.rs', 'tests/sum.rs'] }),
    );
    expect(insight.routines[0]).toBe('platform-compat');
  });

  it('adds no insight for a fix that teaches nothing another repository could use (no lesson, no routine, no general words)', () => {
    const abstraction = abstractWithRules(
      sampleFix({ title: 'Fix `QuuxFrob.zorp` in Blorb', files: ['src/quux.ts'], testsChanged: false }),
    );
    expect(abstraction.memories.map((m) => m.level)).toEqual(['trajectory', 'workflow', 'summary']);
  });

  it('reads the names of the tests the fix added to find its lesson, without quoting them', () => {
    const insight = insightOf(
      sampleFix({
        title: 'Fix loading of settings',
        change: "+  it('handles an empty list of entries', () => {\n+    expect(load([])).toEqual({})",
      }),
    );
    expect(insight.tags).toContain('lesson:empty-input');
    expect(insight.content).not.toMatch(/list of entries/);
  });

  it('gives no example made of a stand-in and a few words, but keeps one that reads as a sentence', () => {
    const terse = insightOf(sampleFix({ title: 'Fix handleRequestAsync go vet usage', files: ['server.go'] }));
    expect(terse.content).not.toMatch(/Seen in/);
    const sentence = insightOf(
      sampleFix({ title: 'Fix crash when handleRequestAsync gets a nested object with a missing context' }),
    );
    expect(sentence.content).toMatch(/Seen in: crash when a function gets a nested object with a missing context\.$/);
    // a stand-in glued to the words around a removed name does not read as a phrase
    const glued = insightOf(
      sampleFix({ title: 'Fix out-of-bounds slice on partial `tzEntry` index entry in the empty table' }),
    );
    expect(glued.content).not.toMatch(/Seen in/);
  });

  it('keeps the lesson without its example when the example still names the source', () => {
    const fix = sampleFix({
      title: 'Fix crash when the config file is empty',
      change: "+  it('crash when the config file is empty', () => {})",
    });
    const insight = insightOf(fix);
    expect(insight.tags).toContain('lesson:empty-input');
    expect(insight.content).not.toMatch(/Seen in/);
    expect(checkSpecificity(insight, fix)).toEqual({ ok: true });
  });

  it.each([
    [['cmd/root.go', 'cmd/root_test.go'], 'Go', ['lang:go', 'tool:go']],
    [['src/lib.rs'], 'Rust', ['lang:rust', 'tool:cargo']],
    [['pkg/core.py', 'tests/test_core.py'], 'Python', ['lang:python', 'tool:pytest']],
    [['lib/index.js', 'yarn.lock'], 'JavaScript', ['lang:javascript', 'tool:yarn']],
  ])('ecosystem of %j is a tag, not a sentence of the insight', (files, language, tags) => {
    const insight = insightOf(sampleFix({ title: 'Handle an empty list', files, language }));
    for (const tag of tags) expect(insight.tags).toContain(tag);
    expect(insight.content).not.toMatch(/run it with|go test|cargo test|pytest|yarn test/);
  });

  it('adds a second routine when the fix clearly has two', () => {
    const insight = insightOf(
      sampleFix({ title: 'Empty NO_COLOR environment variable enables colors', files: ['src/main.rs'] }),
    );
    expect(insight.tags.filter((t) => t.startsWith('routine:')).sort()).toEqual([
      'routine:config-env',
      'routine:edge-input',
    ]);
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
      // NaN is shared vocabulary (a lesson about numbers may name it); the rest are the fixes' own names
      const names = /retry|flag_?impl|add_?hours|FlagBase|IsDefaultVisible|budget|ubuntu|Assertion/i;
      expect(text(insight)).not.toMatch(names);
      expect(insight.evidence.join('\n')).not.toMatch(names);
    }
  });
});
