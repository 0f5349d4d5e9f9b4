// Issue 28, point 2: an insight's identity is its fields. People edit its tags and texts; what it
// teaches, what learn merges by and what recall ranks by stay its fields.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRulesAbstractor } from '../../src/abstraction/rules-abstractor.js';
import { InputError } from '../../src/core/errors.js';
import type { Fix, Memory } from '../../src/core/types.js';
import { silentLogger } from '../../src/ports/index.js';
import { createRedactor } from '../../src/security/redact.js';
import { edit, MAX_TAGS } from '../../src/services/governance.js';
import { learnFixes } from '../../src/services/learn.js';
import { recall } from '../../src/services/recall.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { sampleFix } from '../helpers/sample-fix.js';
import { identityOf } from '../helpers/sample-memory.js';

const dir = mkdtempSync(join(tmpdir(), 'mt-identity-edits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const clock = { now: () => new Date('2025-01-01T00:00:00Z') };
const by = { actor: 'maintainer', now: new Date('2025-01-02T00:00:00Z') };
let store: Store;
let n = 0;
beforeEach(async () => {
  store = await openStore(join(dir, `pool-${++n}.db`));
});
afterEach(async () => {
  await store.close();
});

const learn = (fixes: Fix[]) =>
  learnFixes(
    { store, abstractor: createRulesAbstractor(), redactor: createRedactor(), logger: silentLogger, clock },
    fixes,
  );

const emptyBody = sampleFix({ repo: 'acme/api', ref: 'a1', title: 'Crash when the request body is empty' });
const noArgs = sampleFix({
  repo: 'acme/cli',
  ref: 'c1',
  title: 'Panic when no arguments are given',
  files: ['cmd/main.go', 'cmd/main_test.go'],
  language: 'Go',
});
const emptyQuery = sampleFix({ repo: 'acme/web', ref: 'w1', title: 'Empty search query returns every row' });

async function theInsight(): Promise<Memory> {
  const insights = await store.listMemories('acme', { level: ['insight'] });
  expect(insights).toHaveLength(1);
  return insights[0]!;
}

describe("people's edits and an insight's identity", () => {
  it('an edit of the tags changes the tags only: learn still merges by the lesson, recall still ranks by it', async () => {
    await learn([emptyBody]);
    const learned = await theInsight();
    expect(identityOf(learned)).toEqual({
      lesson: 'empty-input',
      routines: ['edge-input'],
      facet: 'edge-input/empty',
      examples: ['crash when the request body is empty'],
      writer: 'rules',
    });
    expect(learned.tags).toEqual(expect.arrayContaining(['routine:edge-input', 'lesson:empty-input']));

    // a person relabels it: no routine, facet or lesson tag any more, one of another lesson instead
    const edited = await edit(store, 'acme', learned.id, { tags: ['team:payments', 'lesson:listener-leak'] }, by);
    expect(edited.tags).toEqual(['team:payments', 'lesson:listener-leak']);
    expect(identityOf(edited)).toEqual(identityOf(learned));
    expect({ ...(await store.getMemory('acme', learned.id)) }).toEqual(edited);
    expect((await store.listAudit('acme'))[0]).toMatchObject({ action: 'edit', detail: 'edited tags' });

    // a fix of the same lesson joins it; its tags say what it adds for people, not its identity
    await learn([noArgs]);
    const merged = await theInsight();
    expect(merged.id).toBe(learned.id);
    expect(merged.support).toBe(2);
    expect(identityOf(merged)).toEqual({
      ...identityOf(learned),
      examples: ['crash when the request body is empty', 'panic when no arguments are given'],
    });
    expect(merged.tags).toEqual(['team:payments', 'lesson:listener-leak', 'check:unit', 'lang:go', 'tool:go']);

    // a task naming the lesson its fields say gets its lesson's share, not the tags' one
    const hits = await recall(
      { store, logger: silentLogger, clock },
      { tenant: 'acme', repo: 'acme/other', visibility: 'private' },
      'The importer crashes when the uploaded file is empty',
      { k: 3 },
    );
    expect(hits[0]?.memory.id).toBe(learned.id);
    const leak = await recall(
      { store, logger: silentLogger, clock },
      { tenant: 'acme', repo: 'acme/other', visibility: 'private' },
      'Event listeners leak on every reconnect',
      { k: 3, minScore: 0 },
    );
    expect(leak.find((h) => h.memory.id === learned.id)?.parts.routine ?? 0).toBeLessThan(hits[0]!.parts.routine);
  });

  it("an edited content is shown as written; the next merge renders it again from the edited advice and the insight's examples", async () => {
    await learn([emptyBody, noArgs]);
    const learned = await theInsight();
    expect(learned.content).toMatch(
      /Seen in: crash when the request body is empty; panic when no arguments are given\.$/,
    );
    const advice = 'Feed every entry point an empty string, list and body, and expect a clear error.';
    const edited = await edit(store, 'acme', learned.id, { content: advice }, by);
    expect(edited.content).toBe(advice);
    expect(identityOf(edited)).toEqual(identityOf(learned));

    await learn([emptyQuery]);
    const merged = await theInsight();
    expect(merged.support).toBe(3);
    expect(merged.examples).toEqual([
      'crash when the request body is empty',
      'panic when no arguments are given',
      'empty search query returns every row',
    ]);
    expect(merged.content).toBe(
      `${advice} Seen in: crash when the request body is empty; panic when no arguments are given; empty search query returns every row.`,
    );
    expect(merged.body).toEqual({
      level: 'insight',
      insight: { title: merged.title, description: merged.description, content: merged.content },
    });
  });

  it('an edit of the advice alone keeps the examples sentence, rendered again (once) at the next merge', async () => {
    await learn([emptyBody]);
    const learned = await theInsight();
    const sentence = ' Seen in: crash when the request body is empty.';
    expect(learned.content.endsWith(sentence)).toBe(true);
    const advice = 'Feed every entry point an empty string, list and body.';
    await edit(store, 'acme', learned.id, { content: `${advice}${sentence}` }, by);
    await learn([noArgs]);
    expect((await theInsight()).content).toBe(
      `${advice} Seen in: crash when the request body is empty; panic when no arguments are given.`,
    );
  });

  it('refuses tags that are not tags, naming the first, and changes nothing', async () => {
    await learn([emptyBody]);
    const learned = await theInsight();
    const refused = async (tags: string[]) => {
      const error = await edit(store, 'acme', learned.id, { tags }, by).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      return (error as Error).message;
    };
    expect(await refused(['ok', 'two words'])).toBe(
      'tags: "two words" is not a tag (no spaces, at most 100 characters)',
    );
    expect(await refused(['x'.repeat(101)])).toMatch(/^tags: "x+" is not a tag/);
    expect(await refused(Array.from({ length: MAX_TAGS + 1 }, (_, i) => `t${i}`))).toBe(
      `tags: at most ${MAX_TAGS} tags, got ${MAX_TAGS + 1}`,
    );
    expect(await store.getMemory('acme', learned.id)).toEqual(learned);
    expect(await store.listAudit('acme')).toEqual([]);
  });
});
