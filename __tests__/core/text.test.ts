import { describe, expect, it } from 'vitest';
import { fixProse } from '../../src/core/text.js';

describe('fixProse: a body as evidence of what the fix was about', () => {
  it('drops trailers, bot lines, links and the housekeeping of a squashed pull request', () => {
    const body = [
      '* Add hashing for objects compared by identity',
      '',
      '* [pre-commit.ci] auto fixes from pre-commit.com hooks',
      '',
      'for more information, see https://pre-commit.ci',
      '* Add coverage to test',
      '* oops',
      '* Address review comments',
      '* Add changelog entry',
      'This reverts commit 0bd3f5cba641046e6b3342093301c755835674d8.',
      'See https://example.com/issue/1 for the report.',
      'Co-authored-by: Someone <someone@example.com>',
    ].join('\n');
    const prose = fixProse(body);
    expect(prose).toContain('Add hashing for objects compared by identity');
    expect(prose).toContain('Add coverage to test');
    expect(prose).toContain('for the report');
    expect(prose).not.toMatch(/pre-commit|oops|review comments|changelog|reverts|https?:|Co-authored/i);
  });
});
