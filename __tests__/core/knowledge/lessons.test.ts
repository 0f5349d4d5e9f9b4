import { describe, expect, it } from 'vitest';
import { detectLesson, LESSONS, rankLessons } from '../../../src/core/knowledge/lessons.js';

describe('the lesson catalog', () => {
  it('has unique ids and one-sentence descriptions, titles that name a lesson, not a category', () => {
    expect(new Set(LESSONS.map((l) => l.id)).size).toBe(LESSONS.length);
    for (const lesson of LESSONS) {
      expect(lesson.description.split(/(?<=\.)\s/)).toHaveLength(1);
      expect(lesson.check.length).toBeGreaterThan(40);
      expect(lesson.title.split(' ').length).toBeGreaterThan(5);
    }
  });

  it.each([
    ['A falsy value such as 0 is treated as missing and replaced by the default', 'falsy-value-as-absent'],
    ['An empty config file crashes the loader', 'empty-input'],
    ['Wrong day after adding one day across the DST change', 'dst-transition'],
    ['Authorization header sent again after a redirect to another host', 'credentials-across-hosts'],
    ['Windows drive letters break path joining', 'windows-paths'],
    ['Error thrown in a hook is swallowed and the request never responds', 'error-reaches-caller'],
    ['Abort signal ignored between two awaited steps', 'cancellation'],
    ['Regex matches only part of the route', 'anchored-pattern'],
  ])('%j → %s', (text, id) => {
    expect(detectLesson([[text, 1]])?.lesson.id).toBe(id);
  });

  it('one common word alone names no lesson', () => {
    for (const text of ['Add a default', 'Update the error', 'Change the option', 'Rename the type']) {
      expect(detectLesson([[text, 1]])).toBeUndefined();
    }
  });

  it('a kind the evidence already shows restricts the lessons to that kind', () => {
    expect(detectLesson([['Pipeline step fails on a timeout', 1]], 'ci-config')?.lesson.id).toBe('ci-pipeline');
  });

  it('ignores issue numbers and reads code names as words', () => {
    expect(rankLessons('fixes mem leak relating to issue-1834').map((l) => l.lesson.id)).not.toContain(
      'time-zone-offset',
    );
    expect(rankLessons('Fixes for LineDecoding').map((l) => l.lesson.id)).toContain('text-encoding-round-trip');
  });

  it('a version constraint names the dependency lesson; a bound on a value does not', () => {
    expect(rankLessons('require the client >= 2.31 in the manifest')[0]?.lesson.id).toBe('dependency-upgrade');
    expect(rankLessons('the page size must be >= 1').map((l) => l.lesson.id)).not.toContain('dependency-upgrade');
  });
});
