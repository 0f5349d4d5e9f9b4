import { describe, expect, it } from 'vitest';
import { fixProse, preparePattern, withoutTemplateSetup } from '../../src/core/text.js';

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

describe("withoutTemplateSetup: an issue template's questions about the reporter's setup", () => {
  it('drops the setup section, OS and version lines wherever they are, and the checkboxes; keeps the report', () => {
    const issue = [
      '**Describe the bug**',
      'The total is rounded up to 0.31 instead of 0.30.',
      '- Package version: 4.2.0',
      '**Desktop (please complete the following information):**',
      ' - OS: macOS 14',
      ' - Browser: Safari',
      '**Expected behavior**',
      'The total is 0.30.',
      '### Checklist',
      '- [x] I have searched the existing issues',
    ].join('\n');
    const kept = withoutTemplateSetup(issue);
    expect(kept).toContain('rounded up to 0.31 instead of 0.30');
    expect(kept).toContain('**Expected behavior**\nThe total is 0.30.');
    expect(kept).not.toMatch(/macOS|Safari|4\.2\.0|searched the existing/);
  });

  it('keeps a platform said in prose, and a line that only starts like a setup line', () => {
    const issue = 'On Windows the path has forward slashes.\nOS errors are swallowed: the message says nothing.';
    expect(withoutTemplateSetup(issue)).toBe(issue);
  });
});

describe('preparePattern: cue patterns compiled without case folding', () => {
  it('drops the i flag of a lower-case pattern, to be tested on the lowercased text, with the same answers', () => {
    const original = /\b(time ?zones?|utc[+-]\d{1,2})\b|\bnot (been )?set\b/i;
    const prepared = preparePattern(original);
    expect(prepared).toMatchObject({ lower: true });
    expect(prepared.pattern.flags).not.toContain('i');
    for (const text of ['Wrong date in UTC+13', 'TIME ZONE shift', 'the flag was NOT SET', 'nothing here'])
      expect(prepared.pattern.test(text.toLowerCase())).toBe(original.test(text));
  });

  it('keeps a pattern that names an upper-case letter as it is (escapes like \\B and \\W do not count)', () => {
    expect(preparePattern(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/)).toMatchObject({ lower: false });
    expect(preparePattern(/\bTypeError\b/i)).toMatchObject({ lower: false });
    expect(preparePattern(/\Bfoo\W/i)).toMatchObject({ lower: true });
  });
});
