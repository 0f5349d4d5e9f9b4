// A lesson learned from the organization is a lesson entry of the catalog's shape, checked by the
// same schema, and named in a task by its one cue as a catalog lesson is by its cues.
import { describe, expect, it } from 'vitest';
import type { KindEntry } from '../../../src/core/knowledge/entry.js';
import { KINDS } from '../../../src/core/knowledge/kinds/index.js';
import { learnedLesson, namesPhrase } from '../../../src/core/knowledge/learned-lessons.js';
import { knowledgeProblems, lessonProblems } from '../../../src/core/knowledge/schema.js';
import { cueText, cueWeight } from '../../../src/core/text.js';

const named = (text: string, cues: Parameters<typeof cueWeight>[0]) => {
  const read = cueText(text);
  return cueWeight(cues, read, read.toLowerCase()) >= 1;
};

describe('a lesson learned from the organization', () => {
  it("is a lesson entry the catalog's schema accepts, for every routine kind", () => {
    for (const entry of KINDS) {
      const lesson = learnedLesson('serving size', entry.kind, entry.template.check);
      expect(lesson).toMatchObject({ id: 'learned-serving-size', kind: entry.kind, phrase: 'serving size' });
      expect(lesson.title).toContain('serving size');
      expect(lessonProblems(lesson)).toEqual([]);
    }
  });

  it('is named by its phrase as words, however joined, and not by one of its words', () => {
    const { cues } = learnedLesson('trailing slash', 'edge-input', KINDS[0]!.template.check);
    expect(named('Redirect drops the trailing slash of the path', cues)).toBe(true);
    expect(named('TRAILING_SLASH option ignored', cues)).toBe(true);
    expect(named('trailing-slash routes 404', cues)).toBe(true);
    expect(named('a slash in the query string', cues)).toBe(false);
    expect(named('trailingslash', cues)).toBe(false);
    expect(namesPhrase('the trailing slash', 'trailing slash')).toBe(true);
  });

  it('is refused when its title would not be a rule a reader can act on', () => {
    const broken = {
      ...learnedLesson('serving size', 'edge-input', KINDS[0]!.template.check),
      title: 'Fix the serving size of every scaled recipe',
    };
    expect(lessonProblems(broken)).toEqual([expect.stringContaining('begins with a repair verb')]);
  });

  it('is checked for every kind when the knowledge is: a learnedRule that makes a broken title is named', () => {
    const kinds: KindEntry[] = KINDS.map((entry) =>
      entry.kind === 'edge-input' ? { ...entry, learnedRule: 'Fix the {p} with empty values' } : entry,
    );
    expect(knowledgeProblems(kinds)).toEqual([
      expect.stringMatching(/^edge-input: learnedRule makes a lesson whose title: .*begins with a repair verb/),
    ]);
  });
});
