import { describe, expect, it } from 'vitest';
import { classifyCommit, referencedIssues, stripTrailers } from '../../../src/sources/git/detect.js';
import type { CommitFacts } from '../../../src/sources/git/detect.js';
import { parseRemoteUrl } from '../../../src/sources/git/repo-info.js';

const code = [{ status: 'M', path: 'src/a.ts' }];

function isFix(subject: string, body = '', more: Partial<CommitFacts> = {}): boolean {
  return classifyCommit({ author: 'Ada', subject, body, parents: 1, files: code, ...more }).fix;
}
function reason(facts: Partial<CommitFacts>): string | undefined {
  const verdict = classifyCommit({ author: 'Ada', subject: 'fix: x', body: '', parents: 1, files: code, ...facts });
  return verdict.fix ? undefined : verdict.reason;
}

describe('fix detection', () => {
  it.each([
    'fix: handle empty input',
    'fix(parser)!: reject NaN',
    'Fixed crash on startup',
    'Bug: wrong offset in UTC+13',
    'Regression since 2.0',
    'Throw a clear error when the port is taken',
    'Plug a listener leak',
  ])('takes %j', (subject) => expect(isFix(subject)).toBe(true));

  it.each(['Add dark mode', 'docs: fix link', 'Fix typo', 'Refactor the prefix handling', 'chore: bump version'])(
    'passes over %j',
    (subject) => expect(isFix(subject)).toBe(false),
  );

  it('takes "fixes #12" in the body', () => {
    expect(isFix('Handle DST', 'This fixes #12')).toBe(true);
    expect(isFix('Add dark mode')).toBe(false);
  });

  it('passes over a feature, docs or tidying commit that closes an issue', () => {
    expect(isFix('Add `onError()` method', 'Fixes #29')).toBe(false);
    expect(isFix('Clarify timeout documentation', 'Fixes #183')).toBe(false);
    expect(reason({ subject: 'Add dark mode', body: 'Closes #7' })).toBe('no-fix-cue');
  });

  it('names why a commit is skipped', () => {
    expect(reason({ parents: 2 })).toBe('merge');
    expect(reason({ subject: 'Revert "fix: x"' })).toBe('revert');
    expect(reason({ files: [] })).toBe('no-changes');
    expect(
      reason({
        files: [
          { status: 'M', path: 'docs/guide/setup.ts' },
          { status: 'M', path: 'README.md' },
        ],
      }),
    ).toBe('docs-only');
    expect(reason({ subject: 'build(deps): bump x from 1 to 2' })).toBe('dependency-bump');
    expect(reason({ files: [{ status: 'M', path: 'Cargo.lock' }] })).toBe('dependency-bump');
    expect(reason({ author: 'dependabot[bot]' })).toBe('bot');
    expect(reason({ subject: 'fix: typo in a message' })).toBe('typo');
    expect(reason({ subject: 'Fix docstring example.' })).toBe('docs');
    expect(reason({})).toBeUndefined();
  });
});

describe('message parsing', () => {
  it('finds referenced issues once each, not anchors or colours', () => {
    expect(
      referencedIssues('Fix #3 (#14)\n\nSee acme/web#7, https://github.com/acme/api/issues/9 and #3; colour &#35; a#5'),
    ).toEqual(['#3', '#14', 'acme/web#7', 'acme/api#9']);
  });

  it('strips trailers from the body', () => {
    expect(stripTrailers('Explain why.\n\nSigned-off-by: A <a@x>\nCo-authored-by: B <b@x>')).toBe('Explain why.');
  });

  it.each([
    ['https://github.com/acme/api.git', { repo: 'acme/api', github: true }],
    ['git@github.com:acme/api.git', { repo: 'acme/api', github: true }],
    ['ssh://git@github.com/acme/api', { repo: 'acme/api', github: true }],
    ['https://gitlab.example.com/group/sub/api.git', { repo: 'sub/api', github: false }],
    // a local path names no owner: its parent folder is not one
    ['/srv/git/acme/api.git', undefined],
    ['../work/api', undefined],
    ['file:///srv/git/acme/api.git', undefined],
    ['C:\\repos\\acme\\api', undefined],
    ['', undefined],
  ])('reads the remote %j', (url, expected) => expect(parseRemoteUrl(url)).toEqual(expected));
});
