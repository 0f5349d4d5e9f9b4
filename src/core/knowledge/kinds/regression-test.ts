/** The routine kind regression-test (regressions): its cues, routines and lessons. */
import { defineKind } from '../entry.js';

export const regressionTest = defineKind({
  kind: 'regression-test',
  template: {
    label: 'regressions',
    title: 'Pin every fix with a test that fails before it and passes after',
    description: 'A fix without a failing-first test can silently regress later.',
    check:
      'Reproduce the reported problem as an automated test first, watch it fail, then apply the fix and watch it pass; keep the test next to the code it guards.',
    why: 'The failing-first test is what keeps the bug from coming back.',
    also: 'keep a failing-first test for it',
    step: 'Reproduce the problem as a failing test before changing the code.',
  },
  learnedRule: 'Pin the behaviour of the {p} with a regression test',
  vocabulary: 'regression test',
  textCues: [[/\btests?\b|\bregression tests?\b/i, 0.2]],
  checks: { unit: 0.5, e2e: 0.5, other: 0.3 },
  lessons: [],
});
