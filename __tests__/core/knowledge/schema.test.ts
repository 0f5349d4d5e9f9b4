import { describe, expect, it } from 'vitest';
import { LESSONS } from '../../../src/core/knowledge/lessons.js';
import type { KindEntry, LessonEntry } from '../../../src/core/knowledge/entry.js';
import { catalogLessons, FILE_CUE_ORDER, KINDS } from '../../../src/core/knowledge/kinds/index.js';
import { assertKnowledge, knowledgeProblems } from '../../../src/core/knowledge/schema.js';

const entries: readonly KindEntry[] = KINDS;
const lessonOf = (kind: string, id: string): LessonEntry =>
  entries.find((e) => e.kind === kind)!.lessons.find((l) => l.id === id)!;

/** The knowledge with one kind's entry changed. */
function withKind(kind: string, change: (entry: KindEntry) => KindEntry): KindEntry[] {
  return entries.map((entry) => (entry.kind === kind ? change(entry) : entry));
}

/** The knowledge with one lesson changed. */
function withLesson(kind: string, id: string, change: (lesson: LessonEntry) => LessonEntry): KindEntry[] {
  return withKind(kind, (entry) => ({
    ...entry,
    lessons: entry.lessons.map((lesson) => (lesson.id === id ? change(lesson) : lesson)),
  }));
}

describe('the knowledge schema', () => {
  it('accepts the knowledge as written', () => {
    expect(knowledgeProblems()).toEqual([]);
    expect(() => assertKnowledge()).not.toThrow();
  });

  it('rejects a lesson id used by two kinds, naming both', () => {
    const copy = { ...lessonOf('edge-input', 'empty-input') };
    const kinds = withKind('config-env', (e) => ({ ...e, lessons: [...e.lessons, copy] }));
    expect(knowledgeProblems(kinds)).toEqual(['lesson id empty-input is used twice (in edge-input and in config-env)']);
  });

  it('rejects a title that opens on a repair verb or ends on a dangling word', () => {
    const fixTitle = withLesson('edge-input', 'empty-input', (l) => ({
      ...l,
      title: 'Fix the crash on empty input files',
    }));
    expect(knowledgeProblems(fixTitle)).toEqual([
      'edge-input: lesson empty-input title: "Fix the crash on empty input files" begins with a repair verb',
    ]);
    const dangling = withKind('ci-config', (e) => ({
      ...e,
      template: { ...e.template, title: 'Run the workflow on a' },
    }));
    expect(knowledgeProblems(dangling)).toEqual([
      'ci-config: template title: "Run the workflow on a" ends on a dangling word',
    ]);
  });

  it('rejects empty texts, a description of two sentences and a misspelled field', () => {
    const kinds = withLesson('edge-input', 'empty-input', (l) => ({
      ...l,
      check: ' ',
      description: 'It breaks. It breaks again.',
      tittle: 'x',
    }));
    expect(knowledgeProblems(kinds)).toEqual([
      'edge-input: lesson empty-input description: must be one sentence',
      'edge-input: lesson empty-input check: must not be empty',
      'edge-input: lesson empty-input: Unrecognized key: "tittle"',
    ]);
  });

  it('rejects weights that are not sane, and patterns that keep state or match anything', () => {
    const kinds = withLesson('edge-input', 'empty-input', (l) => ({
      ...l,
      cues: [
        [/\bempty\b/i, 0],
        [/\bblank\b/i, 10],
        [/\bnothing\b/gi, 1],
        [/x*/, 1],
      ],
    }));
    expect(knowledgeProblems(kinds)).toEqual([
      'edge-input: lesson empty-input cues[0][1]: a weight must be above 0',
      'edge-input: lesson empty-input cues[1][1]: a weight must be at most 3',
      'edge-input: lesson empty-input cues[2][0]: must not have the g or y flag (it would keep state between texts)',
      'edge-input: lesson empty-input cues[3][0]: must not match an empty text',
    ]);
  });

  it('rejects a lesson read after a lesson that does not exist, or after one of its own kind', () => {
    const unknown = withLesson('security-validation', 'open-redirect', (l) => ({ ...l, after: 'no-such-lesson' }));
    expect(knowledgeProblems(unknown)).toEqual([
      'lesson open-redirect (security-validation) is read after no-such-lesson, which is no lesson',
    ]);
    const own = withLesson('edge-input', 'empty-input', (l) => ({ ...l, after: 'falsy-value-as-absent' }));
    expect(knowledgeProblems(own)).toEqual([
      'lesson empty-input is read after falsy-value-as-absent of its own kind: list it there instead',
    ]);
  });

  it('rejects facets that do not say which routine is whose', () => {
    const kinds = withKind('edge-input', (e) => ({
      ...e,
      facets: e.facets!.map((f, i) =>
        i === 0 ? { ...f, template: e.template } : i === 1 ? { name: f.name, cue: f.cue } : { ...f, name: 'empty' },
      ),
    }));
    expect(knowledgeProblems(kinds)).toEqual([
      "edge-input: facet empty template: the first facet's routine is the kind's template",
      'edge-input: facet boundary template: facet boundary needs its own template',
      'edge-input: facet empty name: facet empty is named twice',
    ]);
  });

  it('rejects a kind of check that points to no routine or to two, and an unknown one', () => {
    const none = withKind('lint-format', (e) => ({ ...e, checks: {} }));
    expect(knowledgeProblems(none)).toEqual(['the check kind lint must point to exactly one routine kind, not 0 ()']);
    const two = withKind('ci-config', (e) => ({ ...e, checks: { lint: 1, smoke: 1 } as KindEntry['checks'] }));
    expect(knowledgeProblems(two)).toEqual([
      'ci-config: checks: Unrecognized key: "smoke"',
      'the check kind lint must point to exactly one routine kind, not 2 (lint-format, ci-config)',
    ]);
  });

  it('rejects file cues the reading order leaves out, and an order naming a kind without them', () => {
    const kinds = withKind('api-compat', (e) => ({
      ...e,
      files: { evidence: 'public API files', cues: [[/\bapi\//, 1]] },
    }));
    expect(knowledgeProblems(kinds)).toEqual(['kind api-compat has file cues but is not in FILE_CUE_ORDER']);
    expect(knowledgeProblems(entries, [...FILE_CUE_ORDER, 'edge-input'])).toEqual([
      'FILE_CUE_ORDER lists edge-input, which has no file cues',
    ]);
  });

  it('says every problem at once in the error it throws', () => {
    const kinds = withLesson('edge-input', 'empty-input', (l) => ({
      ...l,
      title: 'Add empty input checks to it all',
      check: '',
    }));
    expect(() => assertKnowledge(kinds)).toThrow(
      'The knowledge has 2 problem(s):\n- edge-input: lesson empty-input title: "Add empty input checks to it all" begins with a repair verb\n- edge-input: lesson empty-input check: must not be empty',
    );
  });
});

describe('the catalog order', () => {
  it('reads kind by kind, and a lesson with `after` right behind the lesson it names', () => {
    const ids = catalogLessons(entries).map((l) => l.lesson.id);
    expect(ids.slice(ids.indexOf('anchored-pattern'), ids.indexOf('anchored-pattern') + 3)).toEqual([
      'anchored-pattern',
      'open-redirect',
      'display-width',
    ]);
    expect(ids).toHaveLength(entries.reduce((n, e) => n + e.lessons.length, 0));
    expect(LESSONS.map((l) => l.id)).toEqual(ids);
  });

  it('breaks a tie between two equally named lessons in favour of the earlier one', () => {
    const [a, b] = [lessonOf('edge-input', 'empty-input'), lessonOf('edge-input', 'unknown-value')];
    const kinds: KindEntry[] = [
      { ...entries[0]!, lessons: [b, a] },
      { ...entries[1]!, lessons: [{ ...lessonOf('encoding-locale', 'line-endings'), after: 'unknown-value' }] },
    ];
    expect(catalogLessons(kinds).map((l) => l.lesson.id)).toEqual(['unknown-value', 'line-endings', 'empty-input']);
  });
});
