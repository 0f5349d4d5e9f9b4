import { describe, expect, it } from 'vitest';
import { adviceOf, cleanExamples, mergeExamples, withExamples } from '../../src/core/insight-text.js';

describe("an insight's content: its advice, then the examples its field lists", () => {
  it('keeps examples once, without ";", newlines, a closing "." or spaces, at most three; again changes nothing', () => {
    const clean = cleanExamples([' a; b ', 'c.', 'c', 'd. ', '', 'e', 'f']);
    expect(clean).toEqual(['a, b', 'c', 'd']);
    expect(cleanExamples(clean)).toEqual(clean);
    expect(cleanExamples(['x\ny...'])).toEqual(['x,y']);
  });

  it('renders them as a closing sentence, and reads the advice back without it', () => {
    const content = withExamples('Check the empty input.', ['crash on an empty body', 'panic without arguments']);
    expect(content).toBe('Check the empty input. Seen in: crash on an empty body; panic without arguments.');
    expect(adviceOf({ content, examples: ['crash on an empty body', 'panic without arguments'] })).toBe(
      'Check the empty input.',
    );
    expect(withExamples('Check the empty input.', [])).toBe('Check the empty input.');
    // a sentence that is not the field's (a model's words, a person's rewrite) is part of the advice
    expect(adviceOf({ content, examples: [] })).toBe(content);
    expect(adviceOf({ content, examples: ['another example'] })).toBe(content);
  });

  it('merges more examples into the field and renders the content again from it', () => {
    const insight = { content: 'Check it. Seen in: one.', examples: ['one'] };
    expect(mergeExamples(insight, ['two', 'one', 'three', 'four'])).toEqual({
      content: 'Check it. Seen in: one; two; three.',
      examples: ['one', 'two', 'three'],
    });
    // older pools' qualifier sentences are no advice either
    const old = { content: 'Check it. In a Go module, run it with `go test ./...`. Seen in: one.', examples: ['one'] };
    expect(mergeExamples(old, ['two']).content).toBe('Check it. Seen in: one; two.');
  });
});
