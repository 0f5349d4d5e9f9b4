import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REPO_CONFIG,
  dashboardRepoOf,
  mergeConfigLayers,
  parseRepoConfig,
} from '../../src/core/repo-config.js';

describe('parseRepoConfig', () => {
  it('fills every option with its default', () => {
    const { config, problems } = parseRepoConfig(null);
    expect(problems).toEqual([]);
    expect(config).toEqual(DEFAULT_REPO_CONFIG);
    expect(config).toMatchObject({
      enabled: true,
      comment: { issues: true, failing_prs: true },
      top_k: 3,
      review: 'dashboard',
    });
  });

  it('keeps the defaults of options a partial config leaves out', () => {
    const { config } = parseRepoConfig({ comment: { issues: false }, top_k: 2 });
    expect(config.comment).toEqual({ issues: false, failing_prs: true });
    expect(config.top_k).toBe(2);
    expect(config.review).toBe('dashboard');
  });

  it('rejects a wrong value, naming the field, and uses the fallback', () => {
    const fallback = { ...DEFAULT_REPO_CONFIG, top_k: 1 };
    const parsed = parseRepoConfig({ top_k: 10, review: 'sometimes' }, fallback);
    expect(parsed.rejected).toBe(true);
    expect(parsed.config).toBe(fallback);
    expect(parsed.problems.join('\n')).toMatch(/`top_k`/);
    expect(parsed.problems.join('\n')).toMatch(/`review`/);
  });

  it('rejects a config that is not a mapping', () => {
    expect(parseRepoConfig('just a string').rejected).toBe(true);
    expect(parseRepoConfig([1, 2]).rejected).toBe(true);
  });

  it('ignores and reports an unknown option but applies the rest', () => {
    const parsed = parseRepoConfig({ top_k: 1, comments: { issues: false } });
    expect(parsed.rejected).toBe(false);
    expect(parsed.config.top_k).toBe(1);
    expect(parsed.problems).toEqual(['unknown option `comments` (ignored)']);
  });

  it('refuses a dashboard repository that is not a repository name', () => {
    expect(parseRepoConfig({ dashboard_repo: '../../etc' }).rejected).toBe(true);
    expect(parseRepoConfig({ dashboard_repo: 'acme/.github' }).rejected).toBe(false);
  });
});

describe('dashboardRepoOf', () => {
  it('defaults to the repository itself and resolves a bare name in the same org', () => {
    expect(dashboardRepoOf(DEFAULT_REPO_CONFIG, 'acme/api')).toBe('acme/api');
    expect(dashboardRepoOf({ ...DEFAULT_REPO_CONFIG, dashboard_repo: '.github' }, 'acme/api')).toBe('acme/.github');
    expect(dashboardRepoOf({ ...DEFAULT_REPO_CONFIG, dashboard_repo: 'acme/ops' }, 'acme/api')).toBe('acme/ops');
  });
});

describe('mergeConfigLayers', () => {
  it('merges nested options and lets a later list replace an earlier one', () => {
    const merged = mergeConfigLayers([
      { comment: { issues: false }, fix_labels: ['bug'], top_k: 2 },
      { comment: { failing_prs: false }, fix_labels: ['regression'] },
    ]);
    expect(merged).toEqual({ comment: { issues: false, failing_prs: false }, fix_labels: ['regression'], top_k: 2 });
  });

  it('does not let a layer pollute prototypes', () => {
    mergeConfigLayers([JSON.parse('{"__proto__": {"polluted": true}}')]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
