/**
 * forget and revokeSource remove knowledge everywhere a reader could find it again: recall at
 * every level, exports made afterwards, and the bytes of the SQLite file itself.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serializePool } from '../../src/core/retrieval/pool-file.js';
import { MEMORY_STATUSES } from '../../src/core/types.js';
import { forget, revokeSource } from '../../src/services/governance.js';
import { recall } from '../../src/services/recall.js';
import { silentLogger } from '../../src/ports/index.js';
import { openStore } from '../../src/store/open-store.js';
import { sampleMemory } from '../helpers/sample-memory.js';
import { tempDir } from '../security/e2e-helpers.js';

const dir = tempDir('mt-forget-');
afterAll(() => dir.remove());
const clock = { now: () => new Date('2026-11-03T00:00:00Z') };

function fileText(path: string): string {
  return [path, `${path}-wal`]
    .filter(existsSync)
    .map((p) => readFileSync(p).toString('latin1'))
    .join('');
}

describe('forgetting that works', () => {
  it('a forgotten insight is gone from recall, from later exports and from the database file', async () => {
    const path = join(dir.path, 'forget.db');
    const store = await openStore(path);
    const canary = 'wombat4471forgotten';
    const memory = sampleMemory({
      id: 'm0000000099',
      title: `Check the ${canary} guard`,
      content: `Run the ${canary} regression test after any parser change.`,
    });
    await store.putMemory(memory);
    await store.putMemory(sampleMemory({ id: 'm0000000098' }));
    await store.putVector('acme', memory.id, new Float32Array([0.6, 0.8]), 'test-embed');
    const reader = { tenant: 'acme' };
    expect(
      (await recall({ store, logger: silentLogger, clock }, reader, canary, { minScore: 0, anyTask: true })).map(
        (h) => h.memory.id,
      ),
    ).toContain(memory.id);

    await forget(store, 'acme', memory.id, { actor: 'maintainer', now: clock.now() });

    expect(
      await recall({ store, logger: silentLogger, clock }, reader, canary, { minScore: 0, k: 10, anyTask: true }),
    ).not.toEqual(
      expect.arrayContaining([expect.objectContaining({ memory: expect.objectContaining({ id: memory.id }) })]),
    );
    const exported = serializePool(
      { tenant: 'acme', exportedAt: clock.now().toISOString() },
      await store.listMemories('acme', { status: [...MEMORY_STATUSES] }),
    );
    expect(exported).not.toContain(canary);
    expect(exported).toContain('m0000000098');
    await store.close();
    expect(fileText(path)).not.toContain(canary);
  });

  it('a revoked source leaves no trace of its only-memories in the database file', async () => {
    const path = join(dir.path, 'revoke.db');
    const store = await openStore(path);
    const canary = 'numbat9902revoked';
    await store.putMemory(
      sampleMemory({
        id: 'm0000000097',
        title: `Guard ${canary} input`,
        provenance: [{ ...sampleMemory().provenance[0]!, repo: 'acme/gone', ref: '5' }],
      }),
    );
    await revokeSource(store, 'acme', 'acme/gone', undefined, { actor: 'github', now: clock.now() });
    await store.close();
    expect(fileText(path)).not.toContain(canary);
  });
});
