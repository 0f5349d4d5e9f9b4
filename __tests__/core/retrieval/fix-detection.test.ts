import { describe, expect, it } from 'vitest';
import { detectFix, isBot, isDocPath, type FixCandidate } from '../../../src/core/retrieval/fix-detection.js';

const options = { fixLabels: ['bug', 'fix', 'regression'], appSlug: 'memory-transfer' };

function candidate(over: Partial<FixCandidate> = {}): FixCandidate {
  return {
    title: 'Handle empty input in the parser',
    body: '',
    labels: [],
    files: ['src/parser.ts', 'test/parser.test.ts'],
    author: { login: 'alice', type: 'User' },
    ...over,
  };
}

describe('detectFix', () => {
  it('takes a configured label as a fix', () => {
    expect(detectFix(candidate({ labels: ['Bug'] }), options)).toEqual({ fix: true, because: ['label'] });
    expect(detectFix(candidate({ labels: ['defect'] }), { ...options, fixLabels: ['defect'] })).toMatchObject({
      fix: true,
    });
  });

  it('takes title cues: fix words, conventional fix:, closing references', () => {
    expect(detectFix(candidate({ title: 'fix(parser): empty input' }), options)).toMatchObject({ fix: true });
    expect(detectFix(candidate({ title: 'Parser crashes on empty input' }), options)).toMatchObject({ fix: true });
    expect(detectFix(candidate({ body: 'Closes #12' }), options)).toMatchObject({ fix: true });
  });

  it('passes over a docs repair that touched code, unless a label, a bug issue or a check says something failed', () => {
    const docs = candidate({ title: 'Fix grammar in docs (#235)', files: ['src/parser.py', 'docs/parser.rst'] });
    expect(detectFix(docs, options)).toEqual({ fix: false, reason: 'docs' });
    expect(detectFix({ ...docs, title: 'Fixes to documentation.' }, options)).toEqual({ fix: false, reason: 'docs' });
    expect(detectFix({ ...docs, labels: ['bug'] }, options)).toMatchObject({ fix: true });
    expect(detectFix({ ...docs, checksRedGreen: true }, options)).toMatchObject({ fix: true });
    expect(detectFix({ ...docs, title: 'Fix crash when building the docs' }, options)).toMatchObject({ fix: true });
  });

  it('takes a closing reference alone only for a title that reads as a repair', () => {
    const closing = (title: string, body = 'Fixes #29') => detectFix(candidate({ title, body }), options).fix;
    // what the issue asked for was new, documentation or tidying
    expect(closing('Add `onError()` method')).toBe(false);
    expect(closing('Add `timeoutRemaining` to `runningTasks`', 'Fixes #247')).toBe(false);
    expect(closing('Clarify timeout documentation', 'Fixes #183')).toBe(false);
    expect(closing('Improve timeout docs')).toBe(false);
    expect(closing('Rename `carryoverConcurrencyCount` option to `carryoverIntervalCount`')).toBe(false);
    expect(closing('feat: retries for idempotent requests', 'Closes #4')).toBe(false);
    expect(closing('perf: cache compiled patterns', 'Closes #4')).toBe(false);
    // the issue it closes told as the subject's prefix: its "Fix" is the reference's
    expect(closing('Fix #357: Add cache_info() support for @cachedmethod.', '')).toBe(false);
    expect(closing('Fixes #292, fix #205: Drop support for Python 3.7 and 3.8.', '')).toBe(false);
    expect(closing('Fix #63: Handle ValueError in Cache.__missing__().', '')).toBe(true);
    expect(closing('Fix #124: Fix Python 3.8 compatibility issue.', '')).toBe(true);
    // a repair, or a request that names the defect it mends
    expect(closing('Handle empty input in the parser', 'Closes #12')).toBe(true);
    expect(closing('Instantly resolve onEmpty if the queue is empty (#14)')).toBe(true);
    expect(closing('Add null check for headers')).toBe(true);
    expect(closing('Add missing await in close()')).toBe(true);
    // a fix word or a bug issue still makes a fix, whatever the title asks
    expect(closing('Add a fallback for the broken locale data')).toBe(true);
    const bug = { title: 'Errors vanish', labels: ['bug'] };
    expect(detectFix(candidate({ title: 'Add `onError()` method', closedIssues: [bug] }), options)).toMatchObject({
      fix: true,
    });
  });

  it('takes a closed bug issue, a commit cue, or checks made green', () => {
    const issue = { title: 'Something', labels: ['bug'] };
    expect(detectFix(candidate({ closedIssues: [issue] }), options)).toEqual({
      fix: true,
      because: ['closed-bug-issue'],
    });
    expect(detectFix(candidate({ commitMessages: ['fix: off by one\n\nbody'] }), options)).toMatchObject({ fix: true });
    expect(detectFix(candidate({ checksRedGreen: true }), options)).toEqual({
      fix: true,
      because: ['checks-red-green'],
    });
  });

  it('does not take a feature without any fix signal', () => {
    expect(detectFix(candidate({ title: 'Add a dark theme' }), options)).toEqual({
      fix: false,
      reason: 'no-fix-signal',
    });
    expect(detectFix(candidate({ title: 'docs: fix typo in the guide' }), options)).toMatchObject({ fix: false });
  });

  it('skips bots, this App, reverts, docs-only and dependency bumps whatever their cues', () => {
    const bug = { labels: ['bug'] };
    for (const login of ['dependabot[bot]', 'renovate[bot]', 'memory-transfer[bot]', 'renovate', 'github-actions']) {
      expect(detectFix(candidate({ ...bug, author: { login } }), options)).toEqual({ fix: false, reason: 'bot' });
    }
    expect(detectFix(candidate({ ...bug, author: { login: 'ci-helper', type: 'Bot' } }), options)).toMatchObject({
      reason: 'bot',
    });
    expect(detectFix(candidate({ ...bug, title: 'Revert "fix parser"' }), options)).toEqual({
      fix: false,
      reason: 'revert',
    });
    expect(detectFix(candidate({ ...bug, body: 'This reverts commit 0123456789abcdef.' }), options)).toMatchObject({
      reason: 'revert',
    });
    expect(detectFix(candidate({ ...bug, files: ['README.md', 'docs/guide/setup.ts', 'LICENSE'] }), options)).toEqual({
      fix: false,
      reason: 'docs-only',
    });
    expect(
      detectFix(candidate({ ...bug, title: 'chore(deps): bump lodash from 4.17.20 to 4.17.21' }), options),
    ).toMatchObject({
      reason: 'dependency-bump',
    });
  });

  it('does not call a capped file list docs-only when more files changed than were listed', () => {
    expect(detectFix(candidate({ labels: ['bug'], files: ['README.md'], changedFiles: 5000 }), options)).toMatchObject({
      fix: true,
    });
  });

  it('learns from a bot only when the repository trusts it, and never from this App', () => {
    const withTrusted = { ...options, trustedBots: ['my-fixer[bot]', 'memory-transfer[bot]'] };
    expect(
      detectFix(candidate({ labels: ['bug'], author: { login: 'my-fixer[bot]', type: 'Bot' } }), withTrusted),
    ).toMatchObject({ fix: true });
    expect(
      detectFix(candidate({ labels: ['bug'], author: { login: 'memory-transfer[bot]', type: 'Bot' } }), withTrusted),
    ).toMatchObject({
      reason: 'bot',
    });
  });

  it('ignores issues written by bots (its own dashboard) as fix signals', () => {
    const dashboard = {
      title: 'Memory Transfer: insights to review',
      labels: ['bug'],
      author: { login: 'memory-transfer[bot]' },
    };
    expect(detectFix(candidate({ title: 'Add a dark theme', closedIssues: [dashboard] }), options)).toEqual({
      fix: false,
      reason: 'no-fix-signal',
    });
  });
});

describe('helpers', () => {
  it('knows doc paths and bots', () => {
    expect(isDocPath('docs/a/b.ts')).toBe(true);
    expect(isDocPath('CHANGELOG.md')).toBe(true);
    expect(isDocPath('src/docs.ts')).toBe(false);
    // a source file named like a doc is code: a change to it is not docs-only
    expect(isDocPath('src/readme.ts')).toBe(false);
    expect(isDocPath('lib/license.py')).toBe(false);
    expect(isDocPath('LICENSE')).toBe(true);
    expect(isBot({ login: 'alice' }, 'memory-transfer')).toBe(false);
    expect(isBot({ login: 'memory-transfer' }, 'memory-transfer')).toBe(false);
  });
});
