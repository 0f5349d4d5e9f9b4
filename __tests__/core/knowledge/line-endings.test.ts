/**
 * The example of docs/architecture.md "How to add a lesson": the lesson line-endings (one entry in
 * src/core/knowledge/kinds/encoding-locale.ts) and this test, which says what the lesson must catch.
 */
import { describe, expect, it } from 'vitest';
import { abstractWithRules } from '../../../src/abstraction/rules-abstractor.js';
import { detectLesson } from '../../../src/core/knowledge/lessons.js';
import { sampleFix } from '../../helpers/sample-fix.js';

const named = (text: string) => detectLesson([[text, 1]])?.lesson.id;

describe('the lesson line-endings', () => {
  it.each([
    'Values read from a CRLF file keep a stray carriage return',
    'Comment lines are not recognised when the file has Windows line endings',
    'Matcher misses the last line when the file uses carriage returns',
  ])('is named by %j', (task) => {
    expect(named(task)).toBe('line-endings');
  });

  it('is not named by a task about another kind of text', () => {
    expect(named('Emoji in a commit message are cut in half')).not.toBe('line-endings');
    expect(named('Update the readme')).toBeUndefined();
  });

  it('is what a fix about line endings teaches, under its own title', () => {
    const fix = sampleFix({
      title: 'Split lines on CRLF as well as LF when reading the ignore file',
      files: ['src/ignore-file.ts', 'test/ignore-file.test.ts'],
    });
    const insight = abstractWithRules(fix).memories.find((m) => m.level === 'insight');
    expect(insight?.title).toBe('Text must be tested with CRLF and CR line endings, not only LF');
    expect(insight?.tags).toContain('lesson:line-endings');
    expect(insight?.tags).toContain('routine:encoding-locale');
  });
});
