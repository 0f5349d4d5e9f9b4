import { describe, expect, it } from 'vitest';
import { buildReportModel, statusAt } from '../../../src/core/rendering/report-model.js';
import type { AuditEntry, Memory, Provenance } from '../../../src/core/types.js';
import { HIDDEN_REPO, viewerMayChange, viewerMaySee, type Viewer } from '../../../src/core/rendering/viewer.js';
import { sampleMemory } from '../../helpers/sample-memory.js';

const source = (repo: string, visibility: Provenance['visibility'], tenant = 'acme'): Provenance => ({
  tenant,
  repo,
  visibility,
  sourceKind: 'pull_request',
  ref: '1',
  authors: ['ada'],
  date: '2026-01-05T00:00:00Z',
});

const memoryFrom = (...sources: Provenance[]): Memory =>
  sampleMemory({
    provenance: sources,
    visibility: sources.some((s) => s.visibility === 'private') ? 'private' : 'public',
  });

const member = (readable: string[], writable: string[] = []): Viewer => ({
  tenant: 'acme',
  member: { login: 'mel', readable, writable },
});

describe('what a dashboard viewer may see', () => {
  it('shows a member public and internal insights, and private ones only when every private source is readable', () => {
    expect(viewerMaySee(memoryFrom(source('acme/web', 'public')), member([]))).toBe(true);
    expect(viewerMaySee(memoryFrom(source('acme/docs', 'internal')), member([]))).toBe(true);
    const merged = memoryFrom(source('acme/api', 'private'), source('acme/secret', 'private'));
    expect(viewerMaySee(merged, member(['acme/api']))).toBe(false);
    expect(viewerMaySee(merged, member(['ACME/API', 'acme/secret']))).toBe(true);
  });

  it('fails closed: another tenant, a source of another org, an unknown visibility', () => {
    expect(viewerMaySee(memoryFrom(source('acme/web', 'public')), { tenant: 'other' })).toBe(false);
    expect(viewerMaySee(memoryFrom(source('acme/web', 'public'), source('evil/x', 'public', 'evil')), member([]))).toBe(
      false,
    );
    expect(viewerMaySee(memoryFrom(source('acme/web', 'secret' as never)), member([]))).toBe(false);
    expect(viewerMaySee(memoryFrom(source('acme/web', 'secret' as never)), member(['acme/web']))).toBe(true);
  });

  it('lets the local admin see everything of its tenant, and change nothing from a page', () => {
    const m = memoryFrom(source('acme/secret', 'private'));
    expect(viewerMaySee(m, { tenant: 'acme' })).toBe(true);
    expect(viewerMayChange(m, { tenant: 'acme' })).toBe(false);
  });

  it('lets a member change an insight only with write access to a repository it was learned in', () => {
    const m = memoryFrom(source('acme/web', 'public'), source('acme/docs', 'internal'));
    expect(viewerMayChange(m, member(['acme/web'], []))).toBe(false);
    expect(viewerMayChange(m, member(['acme/docs'], ['acme/docs']))).toBe(true);
    expect(viewerMayChange(m, member([], ['acme/other']))).toBe(false);
  });
});

describe('the report model for a member', () => {
  const now = new Date('2026-03-02T12:00:00Z');
  const visible = sampleMemory({
    id: 'm1',
    provenance: [source('acme/web', 'public'), source('acme/api', 'private')],
    visibility: 'private',
  });

  it('names a private source only to who can read it, and drops audit details for members', () => {
    const audit: AuditEntry[] = [
      {
        tenant: 'acme',
        actor: 'ada',
        action: 'approve',
        memoryId: 'm1',
        detail: '/memory in acme/api#3',
        at: '2026-01-06T00:00:00Z',
      },
    ];
    const input = {
      memories: [visible],
      uses: [{ memoryId: 'm1', repo: 'acme/api', at: '2026-02-01T00:00:00Z' }],
      votes: [],
      audit,
    };
    const reader = buildReportModel('acme', input, member(['acme/api']), { now });
    expect(reader.insights[0]?.sources.map((s) => s.repo)).toEqual(['acme/web', 'acme/api']);
    expect(reader.insights[0]?.audit[0]).not.toHaveProperty('detail');
    const admin = buildReportModel('acme', input, { tenant: 'acme' }, { now });
    expect(admin.insights[0]?.audit[0]?.detail).toBe('/memory in acme/api#3');

    const shared = { ...input, memories: [{ ...visible, sharedWiderBy: 'ada' }] };
    const outsiderOfApi = buildReportModel('acme', shared, member([]), { now });
    expect(outsiderOfApi.insights[0]?.sources.map((s) => s.repo)).toEqual(['acme/web', HIDDEN_REPO]);
    expect(outsiderOfApi.transfer.receivers).toEqual([HIDDEN_REPO]);
    expect(JSON.stringify(outsiderOfApi)).not.toContain('acme/api');
  });

  it('replays the status of an insight from the audit log', () => {
    const m = sampleMemory({ createdAt: '2026-01-01T00:00:00Z', status: 'archived' });
    const events: AuditEntry[] = [
      { tenant: 'acme', actor: 'ada', action: 'approve', memoryId: m.id, at: '2026-01-10T00:00:00Z' },
      { tenant: 'acme', actor: 'system:staleness', action: 'archive', memoryId: m.id, at: '2026-02-10T00:00:00Z' },
    ];
    expect(statusAt(m, events, Date.parse('2025-12-31T00:00:00Z'))).toBeUndefined();
    expect(statusAt(m, events, Date.parse('2026-01-05T00:00:00Z'))).toBe('proposed');
    expect(statusAt(m, events, Date.parse('2026-01-20T00:00:00Z'))).toBe('active');
    expect(statusAt(m, events, Date.parse('2026-02-20T00:00:00Z'))).toBe('archived');
  });
});
