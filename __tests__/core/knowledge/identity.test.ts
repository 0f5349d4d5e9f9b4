import { describe, expect, it } from 'vitest';
import { facetOf, identityTags, legacyIdentity, mainRoutine } from '../../../src/core/knowledge/identity.js';
import { RULES_MODEL } from '../../../src/core/types.js';

const legacy = (tags: string[], content = 'Check it.', model: string = RULES_MODEL, level = 'insight' as const) =>
  legacyIdentity({ level, tags, content, model });

describe("a memory's identity as the code before schema 7 read it from its tags, content and model", () => {
  it('reads the lesson, the known routine kinds in order, the facet and the examples', () => {
    expect(
      legacy(
        [
          'lang:go',
          'routine:edge-input',
          'routine:nope',
          'routine:error-handling',
          'routine:edge-input',
          'facet:edge-input/empty',
          'lesson:empty-input',
          'lesson:other',
        ],
        'Feed the empty input. Seen in: crash when the body is empty; panic with no arguments.',
      ),
    ).toEqual({
      lesson: 'empty-input',
      routines: ['edge-input', 'error-handling'],
      facet: 'edge-input/empty',
      examples: ['crash when the body is empty', 'panic with no arguments'],
      writer: 'rules',
    });
  });

  it('has nothing of what the tags and content do not say', () => {
    expect(legacy(['check:unit'], 'Run the tests.')).toEqual({
      lesson: null,
      routines: [],
      facet: null,
      examples: [],
      writer: 'rules',
    });
  });

  it('takes the facet of the first routine kind that has one, never a facet of a kind it does not have', () => {
    const tags = [
      'routine:encoding-locale',
      'routine:edge-input',
      'facet:edge-input/empty',
      'facet:encoding-locale/time',
    ];
    expect(legacy(tags).facet).toBe('encoding-locale/time');
    expect(legacy(['routine:edge-input', 'facet:encoding-locale/time']).facet).toBeNull();
  });

  it('lists examples of insights only (a trace may end like a sentence of examples)', () => {
    const content = 'change: + Seen in: a; b.';
    expect(legacy(['routine:edge-input'], content, RULES_MODEL).examples).toEqual(['a', 'b']);
    expect(legacyIdentity({ level: 'trajectory', tags: [], content, model: RULES_MODEL }).examples).toEqual([]);
  });

  it("tells the rules' text, a model's and a lesson learned from the organization apart by the model", () => {
    expect(legacy(['lesson:empty-input']).writer).toBe('rules');
    expect(legacy(['lesson:empty-input'], 'x', 'gpt-5-mini').writer).toBe('model');
    expect(legacy(['lesson:learned-serving-size']).writer).toBe('learned');
    expect(legacy(['lesson:learned-serving-size'], 'x', 'gpt-5-mini').writer).toBe('model');
    expect(
      legacyIdentity({ level: 'workflow', tags: ['lesson:learned-serving-size'], content: 'x', model: RULES_MODEL })
        .writer,
    ).toBe('rules');
  });
});

describe('reading an identity', () => {
  it("gives a kind's facet only for that kind, and the main routine only when this version knows it", () => {
    expect(facetOf({ facet: 'encoding-locale/time' }, 'encoding-locale')).toBe('time');
    expect(facetOf({ facet: 'encoding-locale/time' }, 'encoding')).toBeUndefined();
    expect(facetOf({ facet: null }, 'encoding-locale')).toBeUndefined();
    expect(mainRoutine({ routines: ['edge-input', 'config-env'] })).toBe('edge-input');
    expect(mainRoutine({ routines: ['a-kind-of-a-later-version'] })).toBeUndefined();
    expect(mainRoutine({ routines: [] })).toBeUndefined();
  });

  it('says itself in tags for people, which read back as the same identity', () => {
    const identity = { lesson: 'empty-input', routines: ['edge-input', 'error-handling'], facet: 'edge-input/empty' };
    const tags = identityTags(identity);
    expect(tags).toEqual([
      'routine:edge-input',
      'routine:error-handling',
      'facet:edge-input/empty',
      'lesson:empty-input',
    ]);
    expect(legacy(tags)).toMatchObject(identity);
  });
});
