import { describe, expect, it } from 'vitest';
import {
  COMMENT_HEADING,
  COMMENT_MARKER,
  renderSearch,
  renderSuggestionComment,
  renderWhy,
  sourceUrl,
  type RenderContext,
} from '../../../src/core/rendering/comment-render.js';
import { renderDashboard, tickedIds } from '../../../src/core/rendering/dashboard-render.js';
import type { Memory, RecallHit, Requester } from '../../../src/core/types.js';
import { escapeMarkdown, markdownLink } from '../../../src/security/markdown.js';
import { sampleMemory } from '../../helpers/sample-memory.js';

const GITHUB = 'https://github.com';

function ctxFor(requester: Requester): RenderContext {
  return { escape: escapeMarkdown, link: (t, u) => markdownLink(t, u, GITHUB), githubUrl: GITHUB, requester };
}

const publicWeb: Requester = { tenant: 'acme', repo: 'acme/web', visibility: 'public' };
const privateWeb: Requester = { tenant: 'acme', repo: 'acme/web', visibility: 'private' };

function hit(memory: Memory, score = 0.5): RecallHit {
  return {
    memory,
    score,
    parts: { lexical: 0.4, vector: 0, routine: 0.2, prior: 0.1, fused: score },
    transferred: true,
  };
}

function memoryFrom(repo: string, visibility: Memory['visibility'], overrides: Partial<Memory> = {}): Memory {
  return sampleMemory({
    visibility,
    provenance: [
      {
        tenant: 'acme',
        repo,
        visibility,
        sourceKind: 'pull_request',
        ref: '12',
        url: `https://github.com/${repo}/pull/12`,
        authors: ['ada'],
        date: '2024-01-02T00:00:00Z',
      },
    ],
    ...overrides,
  });
}

/** every link target in a Markdown text: [text](target) and bare scheme://… */
function linkTargets(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]*)\)/g)].map((m) => m[1] ?? '');
}

describe('renderSuggestionComment', () => {
  it('shows at most three insights with their ids, sources and the feedback footer', () => {
    const hits = ['m0000000001', 'm0000000002', 'm0000000003', 'm0000000004'].map((id) =>
      hit(memoryFrom('acme/api', 'public', { id })),
    );
    const body = renderSuggestionComment(hits, ctxFor(publicWeb), 3);
    expect(body.startsWith(COMMENT_HEADING)).toBe(true);
    expect(body).toContain('`m0000000001`');
    expect(body).toContain('`m0000000003`');
    expect(body).not.toContain('m0000000004');
    expect(body).toContain('[acme/api\\#&#8203;12](https://github.com/acme/api/pull/12)');
    expect(body).toMatch(/React 👍 or 👎/);
    expect(body).toContain('/memory why');
  });

  it('names and links a source only where the reader may open it', () => {
    const secret = memoryFrom('acme/secret-service', 'private');
    const shared = { ...secret, sharedWiderBy: 'admin' };
    const inPublic = renderSuggestionComment([hit(shared)], ctxFor(publicWeb));
    expect(inPublic).not.toContain('secret');
    expect(inPublic).toContain('a repository you cannot see');
    const inPrivate = renderSuggestionComment([hit(secret)], ctxFor(privateWeb));
    expect(inPrivate).toContain('https://github.com/acme/secret-service/pull/12');
  });

  it('escapes hostile text: no raw HTML, no images, no links but to the GitHub host, no pings', () => {
    const hostile = memoryFrom('acme/api', 'public', {
      title: '<img src=x onerror=alert(1)> **bold** @acme/admins',
      description: '![tracker](https://evil.example/pixel.png) see #1 and GH-2',
      content:
        '[click me](https://evil.example/phish)\n<script>alert(1)</script>\n<details><summary>x</summary>hidden</details>\nhttps://evil.example/raw www.evil.example',
      evidence: ['<a href="https://evil.example">evidence</a>'],
    });
    const body = renderSuggestionComment([hit(hostile)], ctxFor(publicWeb));
    // the one piece of HTML is our own hidden marker, the last line
    expect(body.split('\n').at(-1)).toBe(COMMENT_MARKER);
    expect(body.replace(COMMENT_MARKER, '')).not.toMatch(/<[a-z!/]/i);
    expect(body).not.toContain('![');
    expect(body).not.toContain('](https://evil');
    expect(body).not.toMatch(/@acme/);
    expect(body).not.toContain('https://evil');
    for (const target of linkTargets(body)) expect(target.startsWith('https://github.com/')).toBe(true);
  });

  it('never links a provenance entry with a repository or ref that is not a plain name', () => {
    const url = 'https://github.com/acme/api/pull/12';
    expect(sourceUrl(GITHUB, { repo: 'acme/api', sourceKind: 'pull_request', ref: '12', url })).toBe(url);
    expect(sourceUrl(GITHUB, { repo: 'evil.example/../x', sourceKind: 'issue', ref: '1', url })).toBeUndefined();
    expect(sourceUrl(GITHUB, { repo: 'acme/api', sourceKind: 'issue', ref: '1)(javascript:', url })).toBe(
      'https://github.com/acme/api',
    );
    expect(sourceUrl('javascript:alert(1)', { repo: 'acme/api', sourceKind: 'issue', ref: '1', url })).toBeUndefined();
  });

  it('never makes up a link: only a source recorded with a URL in that repository on that host gets one', () => {
    const source = { repo: 'acme/api', sourceKind: 'commit' as const, ref: 'a'.repeat(40) };
    // learned from a clone of a local path, or a fix record without a URL: no host is known
    expect(sourceUrl(GITHUB, source)).toBeUndefined();
    // recorded on another host, or in another repository
    expect(sourceUrl(GITHUB, { ...source, url: 'https://gitlab.example.com/acme/api/-/commit/aaa' })).toBeUndefined();
    expect(sourceUrl(GITHUB, { ...source, url: 'https://github.com/acme/api-fork/commit/aaa' })).toBeUndefined();
    expect(
      sourceUrl('https://ghe.acme.dev', { ...source, url: 'https://github.com/acme/api/commit/aaa' }),
    ).toBeUndefined();
    expect(sourceUrl(GITHUB, { ...source, url: `https://github.com/acme/api/commit/${'a'.repeat(40)}` })).toBe(
      `https://github.com/acme/api/commit/${'a'.repeat(40)}`,
    );
  });
});

describe('renderWhy and renderSearch', () => {
  it('explains the scores and sources of what the comment showed', () => {
    const m = memoryFrom('acme/api', 'public');
    const text = renderWhy([{ id: m.id, score: 0.512, parts: hit(m).parts }], [m], ctxFor(publicWeb));
    expect(text).toContain('score 0.512');
    expect(text).toContain('lexical 0.400');
    expect(text).toContain('https://github.com/acme/api/pull/12');
  });

  it('escapes the search text it echoes', () => {
    const text = renderSearch('<img src=x> @ghost', [], ctxFor(publicWeb));
    expect(text).not.toContain('<img');
    expect(text).not.toMatch(/@ghost/);
  });
});

describe('dashboard', () => {
  it('lists proposed insights with checkboxes and reads ticks back', () => {
    const a = memoryFrom('acme/api', 'public', { id: 'm00000000aa', status: 'proposed' });
    const b = memoryFrom('acme/api', 'public', { id: 'm00000000bb', status: 'proposed' });
    const body = renderDashboard({ visible: [a, b], hidden: 1, configProblems: [] }, ctxFor(publicWeb));
    expect(body).toContain('- [ ] **');
    expect(body).toContain('1 more insight waits');
    expect(tickedIds(body).size).toBe(0);
    const ticked = body.replace('- [ ] **Pin', '- [x] **Pin');
    expect([...tickedIds(ticked)]).toEqual(['m00000000aa']);
  });
});
