import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { abstractWithRules } from '../../src/abstraction/rules-abstractor.js';
import { MemoryIndex, type Retriever } from '../../src/core/retrieval/memory-index.js';
import type { Fix, Memory, Visibility } from '../../src/core/types.js';
import type { Embedder } from '../../src/ports/index.js';
import { silentLogger } from '../../src/ports/index.js';
import { forget } from '../../src/services/governance.js';
import { recall, taskKindOf, taskRoutines } from '../../src/services/recall.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { sampleFix } from '../helpers/sample-fix.js';

const dir = mkdtempSync(join(tmpdir(), 'mt-recall-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const clock = { now: () => new Date('2025-01-01T00:00:00Z') };
let n = 0;

/** The insight the rules make of a fix, as a stored memory. */
function insightMemory(id: string, fix: Fix, overrides: Partial<Memory> = {}): Memory {
  const insight = abstractWithRules(fix).memories.find((m) => m.level === 'insight')!;
  return {
    ...insight,
    id,
    tenant: fix.tenant,
    provenance: [
      {
        tenant: fix.tenant,
        repo: fix.repo,
        visibility: fix.visibility,
        sourceKind: 'commit',
        ref: fix.ref,
        authors: [],
        date: fix.date,
      },
    ],
    visibility: fix.visibility,
    status: 'active',
    votes: { up: 0, down: 0 },
    support: 1,
    uses: 0,
    outcomes: { success: 0, failure: 0 },
    model: 'rules@1',
    writer: 'rules',
    createdAt: '2024-12-01T00:00:00.000Z',
    updatedAt: '2024-12-01T00:00:00.000Z',
    ...overrides,
  };
}

const pool: Memory[] = [
  insightMemory(
    'mtz',
    sampleFix({
      repo: 'acme/cal',
      ref: 'c1',
      title: 'Wrong hour after the DST change',
      visibility: 'public',
      files: ['src/tz.ts'],
    }),
  ),
  insightMemory(
    'mempty',
    sampleFix({ repo: 'acme/api', ref: 'a1', title: 'Crash on an empty request body', visibility: 'private' }),
  ),
  insightMemory(
    'mleak',
    sampleFix({ repo: 'acme/web', ref: 'w1', title: 'Socket listeners leak on every retry', visibility: 'internal' }),
  ),
  insightMemory(
    'mrace',
    sampleFix({ repo: 'acme/web', ref: 'w2', title: 'Race between close and write', visibility: 'public' }),
    { status: 'proposed' },
  ),
  insightMemory(
    'mother',
    sampleFix({
      tenant: 'globex',
      repo: 'globex/x',
      ref: 'g1',
      title: 'Wrong offset in UTC+13 time zone',
      visibility: 'public',
    }),
  ),
];

async function sqlitePool(memories: Memory[]): Promise<Store> {
  const store = await openStore(join(dir, `pool-${++n}.db`));
  for (const m of memories) await store.putMemory(m);
  return store;
}

const retrievers: [string, (memories: Memory[]) => Promise<Retriever & { close?: () => Promise<void> }>][] = [
  ['SQLite store', sqlitePool],
  ['memory index', async (memories) => new MemoryIndex(memories)],
];

describe.each(retrievers)('recall over the %s', (_name, make) => {
  const ask = async (
    task: string,
    requester: { tenant: string; repo?: string; visibility?: Visibility; statuses?: Memory['status'][] },
    options = {},
  ) => {
    const store = await make(pool);
    try {
      return await recall({ store, logger: silentLogger, clock }, requester, task, options);
    } finally {
      await store.close?.();
    }
  };

  it('finds the routine a task describes in other words, with its score parts', async () => {
    const hits = await ask('date parsing breaks for users in UTC+13', { tenant: 'acme' });
    expect(hits[0]?.memory.id).toBe('mtz');
    expect(hits[0]!.parts.routine).toBeGreaterThan(0.5);
    expect(hits[0]!.parts.fused).toBeGreaterThanOrEqual(0.2);
    expect(hits[0]!.score).toBeCloseTo(hits[0]!.parts.fused + 0.05 * hits[0]!.parts.prior, 2);
    expect(hits.every((h) => h.memory.tenant === 'acme')).toBe(true);
  });

  it('returns nothing for a task nothing in the pool is about', async () => {
    expect(await ask('hello world', { tenant: 'acme' })).toEqual([]);
    expect(await ask('   ', { tenant: 'acme' })).toEqual([]);
  });

  it('serves a public repository only what flows to it, and never another tenant or a proposed memory', async () => {
    const hits = await ask(
      'empty input, time zones, leaking listeners and races',
      { tenant: 'acme', repo: 'acme/site', visibility: 'public' },
      { k: 10, minScore: 0 },
    );
    expect(hits.map((h) => h.memory.id).sort()).toEqual(['mtz']);
    const internal = await ask(
      'empty input, time zones, leaking listeners and races',
      { tenant: 'acme', repo: 'acme/site', visibility: 'internal' },
      { k: 10, minScore: 0 },
    );
    expect(internal.map((h) => h.memory.id).sort()).toEqual(['mleak', 'mtz']);
    const admin = await ask(
      'empty input, time zones, leaking listeners and races',
      { tenant: 'acme', statuses: ['active', 'proposed'] },
      { k: 10, minScore: 0 },
    );
    expect(admin.map((h) => h.memory.id).sort()).toEqual(['mempty', 'mleak', 'mrace', 'mtz']);
  });

  it('excludeRepo drops memories learned only in that repository; transferred marks the others', async () => {
    const hits = await ask(
      'listeners leak memory',
      { tenant: 'acme', repo: 'acme/web', visibility: 'private' },
      { excludeRepo: 'acme/web', k: 10, minScore: 0 },
    );
    expect(hits.map((h) => h.memory.id)).not.toContain('mleak');
    expect(hits.every((h) => h.transferred)).toBe(true);
    const own = await ask('listeners leak memory', { tenant: 'acme', repo: 'acme/web', visibility: 'private' });
    expect(own.find((h) => h.memory.id === 'mleak')?.transferred).toBe(false);
  });

  it('gives at most k results, 3 by default', async () => {
    expect(
      (await ask('empty input, time zones, leaking listeners', { tenant: 'acme' }, { minScore: 0 })).length,
    ).toBeLessThanOrEqual(3);
    expect(
      await ask('empty input, time zones, leaking listeners', { tenant: 'acme' }, { k: 1, minScore: 0 }),
    ).toHaveLength(1);
  });
});

describe('recall ranking', () => {
  it('never shows two near-identical insights', async () => {
    const twins = [
      insightMemory(
        'm1',
        sampleFix({ repo: 'acme/a', ref: '1', title: 'Crash on an empty list', files: ['a.go'], language: 'Go' }),
      ),
      insightMemory(
        'm2',
        sampleFix({ repo: 'acme/b', ref: '2', title: 'Panic on an empty slice', files: ['b.py'], language: 'Python' }),
      ),
      insightMemory('m3', sampleFix({ repo: 'acme/c', ref: '3', title: 'Wrong hour after the DST change' })),
    ];
    const hits = await recall(
      { store: new MemoryIndex(twins), logger: silentLogger, clock },
      { tenant: 'acme' },
      'crash on empty input',
      { minScore: 0 },
    );
    const ids = hits.map((h) => h.memory.id);
    expect(ids.filter((id) => id === 'm1' || id === 'm2')).toHaveLength(1);
  });

  it('a better standing breaks a tie but does not beat a clearly more relevant insight', async () => {
    const tz = insightMemory('mtz', sampleFix({ ref: '1', title: 'Wrong hour after the DST change' }), {
      votes: { up: 0, down: 5 },
    });
    const loved = insightMemory('mempty', sampleFix({ ref: '2', title: 'Crash on an empty list' }), {
      votes: { up: 50, down: 0 },
      support: 40,
    });
    const hits = await recall(
      { store: new MemoryIndex([tz, loved]), logger: silentLogger, clock },
      { tenant: 'acme' },
      'time zone offset wrong in UTC+13',
      { minScore: 0 },
    );
    expect(hits[0]?.memory.id).toBe('mtz');
  });

  it('uses vectors when an embedder is given, and falls back to lexical when it fails', async () => {
    const store = await sqlitePool(pool.slice(0, 3));
    try {
      await store.putVector('acme', 'mleak', new Float32Array([0, 1]), 'fake');
      await store.putVector('acme', 'mtz', new Float32Array([1, 0]), 'fake');
      const embedder: Embedder = {
        model: 'fake',
        dimensions: 2,
        embed: async (texts) => texts.map(() => new Float32Array([0, 1])),
      };
      const hits = await recall(
        { store, embedder, logger: silentLogger, clock },
        { tenant: 'acme' },
        'the process slowly runs out of something',
        { minScore: 0.1 },
      );
      expect(hits[0]?.memory.id).toBe('mleak');
      expect(hits[0]!.parts.vector).toBeCloseTo(1);
      const failing: Embedder = { model: 'fake', dimensions: 2, embed: async () => Promise.reject(new Error('429')) };
      const lexical = await recall(
        { store, embedder: failing, logger: silentLogger, clock },
        { tenant: 'acme' },
        'listeners leak',
      );
      expect(lexical[0]?.memory.id).toBe('mleak');
      expect(lexical[0]!.parts.vector).toBe(0);
    } finally {
      await store.close();
    }
  });
});

describe('recall over a store that caches what it reads', () => {
  it('hands out memories the caller may change, and sees a rewrite on the next recall', async () => {
    const store = await sqlitePool(pool);
    try {
      const deps = { store, logger: silentLogger, clock };
      const task = 'date parsing breaks for users in UTC+13';
      const first = await recall(deps, { tenant: 'acme' }, task);
      expect(first[0]?.memory.id).toBe('mtz');
      expect(Object.isFrozen(first[0]!.memory)).toBe(false);
      first[0]!.memory.title = 'changed by the caller';
      const again = await recall(deps, { tenant: 'acme' }, task);
      expect(again[0]?.memory.title).not.toBe('changed by the caller');

      const original = (await store.getMemory('acme', 'mtz'))!;
      await store.putMemory({ ...original, status: 'rejected' });
      expect((await recall(deps, { tenant: 'acme' }, task)).map((h) => h.memory.id)).not.toContain('mtz');
      await store.putMemory({ ...original, title: `${original.title} (reviewed)` });
      const rewritten = await recall(deps, { tenant: 'acme' }, task);
      expect(rewritten[0]?.memory.title).toBe(`${original.title} (reviewed)`);
    } finally {
      await store.close();
    }
  });
});

describe('recall over a pool file whose routine vocabulary search was cached', () => {
  // the task names time zones: recall also searches the vocabulary of that routine (the same
  // search for every task that names it, so the store keeps its result); this insight shares no
  // word with the task and is found through that search alone
  const task = 'date parsing breaks for users in UTC+13';
  const text = {
    title: 'Check locale rules across a DST boundary',
    description: 'Changes to locale handling regress unless a DST switch is covered.',
    content: 'Run the suite under a second locale and across a DST switch.',
  };
  const vocabularyOnly = insightMemory('mlocale', sampleFix({ repo: 'acme/intl', ref: 'i1', visibility: 'public' }), {
    ...text,
    body: { level: 'insight', insight: text },
    tags: ['routine:encoding-locale'],
    routines: ['encoding-locale'],
    lesson: null,
  });
  const ids = (hits: { memory: Memory }[]) => hits.map((h) => h.memory.id);

  it('sees an insight written, forgotten, or written by another process since', async () => {
    const path = join(dir, `pool-${++n}.db`);
    const store = await openStore(path);
    const other = await openStore(path);
    try {
      for (const m of pool) await store.putMemory(m);
      const deps = { store, logger: silentLogger, clock };
      // no relevance bar: the question is whether recall finds the insight at all
      const ask = () => recall(deps, { tenant: 'acme' }, task, { k: 5, minScore: 0 });
      expect(ids(await ask())).not.toContain('mlocale');

      await store.putMemory(vocabularyOnly);
      const written = await ask();
      expect(ids(written)).toContain('mlocale');
      expect(written.find((h) => h.memory.id === 'mlocale')!.parts.lexical).toBe(0);

      await forget(store, 'acme', 'mlocale', { actor: 'octocat' });
      expect(ids(await ask())).not.toContain('mlocale');

      // another process (the CLI beside the App) writes the same file, then retires the insight
      await other.putMemory(vocabularyOnly);
      expect(ids(await ask())).toContain('mlocale');
      await other.putMemory({ ...vocabularyOnly, status: 'archived' });
      expect(ids(await ask())).not.toContain('mlocale');
    } finally {
      await other.close();
      await store.close();
    }
  });
});

describe('a failure whose words name no routine', () => {
  const empty = insightMemory(
    'mempty',
    sampleFix({ repo: 'acme/api', ref: 'a1', title: 'Crash on an empty request body', visibility: 'public' }),
  );
  const layers = insightMemory(
    'mlayers',
    sampleFix({
      repo: 'acme/web',
      ref: 'w1',
      title: 'Layers cloned for each route slow the router down',
      visibility: 'public',
    }),
  );

  it('leans to edge inputs only through an insight that shares its words: no guess wins an unrelated task', async () => {
    const task = 'Fix router layers cloned twice';
    expect(taskRoutines(task)).toEqual([{ kind: 'edge-input', weight: 0.3 }]);
    const hits = await recall(
      { store: new MemoryIndex([empty, layers]), logger: silentLogger, clock },
      { tenant: 'acme' },
      task,
    );
    expect(hits.map((h) => h.memory.id)).toEqual(['mlayers']);
  });
});

describe('one lesson, one result', () => {
  const leak = (id: string, repo: string, ref: string, title: string) =>
    insightMemory(id, sampleFix({ repo, ref, title, visibility: 'public' }));
  const ask = async (memories: Memory[], task: string) =>
    recall({ store: new MemoryIndex(memories), logger: silentLogger, clock }, { tenant: 'acme' }, task, { k: 3 });

  it('folds insights of the same lesson into the best one: one result, the sources of both', async () => {
    const a = leak('mleak1', 'acme/web', 'w1', 'Socket listeners leak on every retry');
    const b = leak('mleak2', 'acme/api', 'a1', 'Abort listeners pile up on a shared signal and leak');
    expect(a.tags.find((t) => t.startsWith('lesson:'))).toBeDefined();
    expect(a.tags.find((t) => t.startsWith('lesson:'))).toBe(b.tags.find((t) => t.startsWith('lesson:')));
    const hits = await ask([a, b], 'Memory grows on every request: the listener count keeps growing');
    const same = hits.filter((h) => h.memory.title === a.title);
    expect(same).toHaveLength(1);
    expect(same[0]!.memory.provenance.map((p) => p.repo).sort()).toEqual(['acme/api', 'acme/web']);
  });

  it('folds insights that share a title, whoever wrote them', async () => {
    const a = leak('mt1', 'acme/web', 'w1', 'Socket listeners leak on every retry');
    const b = { ...leak('mt2', 'acme/api', 'a1', 'Crash on an empty request body'), title: a.title.toUpperCase() };
    const hits = await ask([a, b], 'Socket listeners leak: memory grows on every retry');
    expect(hits.filter((h) => h.memory.title.toLowerCase() === a.title.toLowerCase())).toHaveLength(1);
  });

  it('ranks a lesson two repositories taught above a singleton of equal match', async () => {
    const one = leak('msingle', 'acme/web', 'w1', 'Socket listeners leak on every retry');
    const two = {
      ...leak('mdouble', 'acme/api', 'a1', 'Socket listeners leak on every retry'),
      id: 'mdouble',
      title: 'Listeners must be removed when their work ends, taught twice',
      provenance: [...one.provenance.map((p) => ({ ...p, repo: 'acme/api' })), ...one.provenance],
    };
    const hits = await ask([one, two], 'Socket listeners leak on every retry');
    expect(hits[0]!.memory.id).toBe('mdouble');
  });
});

describe("a model's insight", () => {
  const fix = sampleFix({ repo: 'acme/api', ref: 'a1', title: 'Crash on an empty request body', visibility: 'public' });
  const base = insightMemory('mbase', fix);
  // the rules' checklist of the kind, taught in two repositories
  const checklist: Memory = {
    ...base,
    id: 'mchecklist',
    title: 'Test the empty, null and missing inputs of the code you change',
    lesson: null,
    routines: ['edge-input'],
    facet: null,
    support: 2,
    provenance: [...base.provenance, { ...base.provenance[0]!, repo: 'acme/web', ref: 'w1' }],
  };
  // a lesson the model wrote that the catalog does not name
  const model: Memory = {
    ...base,
    id: 'mmodel',
    title: 'A request with no body must be answered, not crash the handler',
    description: 'When a client sends a request without a body.',
    content: 'Send a request with no body to each handler and assert a clear answer.',
    lesson: null,
    routines: ['edge-input'],
    facet: null,
    examples: [],
    writer: 'model',
    model: 'gpt-5-mini',
  };

  it("states its own lesson: it gets the whole routine match, where the rules' checklist of the kind gets half", async () => {
    const hits = await recall(
      { store: new MemoryIndex([checklist, model]), logger: silentLogger, clock },
      { tenant: 'acme' },
      'The server crashes when a client sends an empty body',
    );
    const [first, second] = hits;
    expect(first?.memory.id).toBe('mmodel');
    expect(second?.memory.id).toBe('mchecklist');
    expect(first!.parts.routine).toBeGreaterThan(1.5 * second!.parts.routine);
  });
});

describe('an issue written in a template', () => {
  const setup = [
    '### Environment',
    '- OS: Windows 11',
    '- Browser: Chrome 121',
    '- Node version: 20.11.1',
    '',
    '### Checklist',
    '- [x] I have searched the existing issues',
  ].join('\n');

  it("reads the bug, not the reporter's setup: no platform routine from the Environment section", () => {
    const bug = [
      '[Bug]: totals are off by one cent',
      '### Describe the bug',
      'The total of three items of 0.10 is 0.30000000000000004, rounded up to 0.31 when displayed.',
      '### Expected behavior',
      'The total is 0.30.',
    ].join('\n');
    const kinds = taskRoutines(`${bug}\n\n${setup}`).map((c) => c.kind);
    expect(kinds).not.toContain('platform-compat');
    expect(kinds).toEqual(taskRoutines(bug).map((c) => c.kind));
  });

  it('still reads a platform the reporter names in the prose', () => {
    const bug =
      '[Bug]: paths break\n### Describe the bug\nOn Windows the cache path has forward slashes mixed with backslashes.';
    expect(taskRoutines(`${bug}\n\n${setup}`)[0]?.kind).toBe('platform-compat');
  });
});

/** The task reads as a failure whose first routine is `kind`. */
function expectFailureNeeding(task: string, kind: string): void {
  expect(taskKindOf(task)).toBe('failure');
  expect(taskRoutines(task)[0]?.kind).toBe(kind);
}

describe("a failing check's log", () => {
  const EXIT = 'Error: Process completed with exit code 1.';
  // the runner's own exit line says a step failed, not what failed: no error-handling routine from it
  it.each([
    [
      `FAIL test/format.test.js\n  ● formatDate › renders the local date in UTC+13\n    Expected: "2024-01-01"\n    Received: "2023-12-31"\n${EXIT}`,
      'encoding-locale',
    ],
    [
      `src/index.ts(12,5): error TS2322: Type 'string | undefined' is not assignable to type 'string'.\n${EXIT}`,
      'type-check',
    ],
    ['> Task :test FAILED\njava.lang.OutOfMemoryError: Java heap space', 'performance-resource'],
    [
      `> eslint .\n/home/runner/work/app/src/a.js\n  12:7  error  'x' is assigned a value but never used  no-unused-vars\n✖ 1 problem (1 error, 0 warnings)`,
      'lint-format',
    ],
  ])('%s → a failure that needs %s', (log, kind) => {
    expectFailureNeeding(log, kind);
    // the runner's exit line changes nothing in the reading
    expect(taskRoutines(log.replace(EXIT, ''))).toEqual(taskRoutines(log));
  });
});

describe("an issue's routines", () => {
  // symptoms told in plain words, as a user files them: the kind of task and the first routine read
  it.each([
    [
      'Data lost when two workers write at the same time',
      'Some rows written by one of them disappear.',
      'concurrency-async',
    ],
    ['Running two instances at once corrupts the cache file', '', 'concurrency-async'],
    ['Log lines are written out of order under load', '', 'concurrency-async'],
    [
      'Random test failures on CI',
      'About one run in ten, test_cache_expiry fails. Cannot reproduce it locally.',
      'concurrency-async',
    ],
    [
      'Build broken on M1 Macs',
      'The postinstall step downloads the x64 binary: "bad CPU type in executable".',
      'platform-compat',
    ],
    [
      'Inconsistent results between Linux and Windows',
      'The same glob matches 120 files on Linux but 0 on Windows.',
      'platform-compat',
    ],
    ["Server doesn't shut down", 'After SIGTERM the process stays alive for ~30 s.', 'concurrency-async'],
    ['Memory usage', 'Our service uses 2 GB after a day of uptime; it starts at 200 MB.', 'performance-resource'],
    ['fatal error: concurrent map writes', 'Happens with many goroutines.', 'concurrency-async'],
    [
      'Warning on exit',
      "ResourceWarning: unclosed file <_io.TextIOWrapper name='out.txt' encoding='UTF-8'>",
      'performance-resource',
    ],
    [
      'Task destroyed warning',
      "Task was destroyed but it is pending! task: <Task pending name='Task-3'>",
      'concurrency-async',
    ],
    ['certificate error', 'x509: certificate signed by unknown authority', 'security-validation'],
    ['Sorting is not stable', 'Items with equal keys come out in a different order on each run.', 'edge-input'],
    [
      'Cleanup error hides the real failure',
      'When the test fails and teardown also fails, only the teardown error is reported.',
      'error-handling',
    ],
    ['ECONNRESET not retried', 'Error: read ECONNRESET at TLSWrap.onStreamRead', 'error-handling'],
    ['EADDRINUSE after restart', 'Error: listen EADDRINUSE: address already in use :::3000', 'performance-resource'],
    [
      'Cannot use import statement outside a module',
      'SyntaxError: Cannot use import statement outside a module',
      'build-packaging',
    ],
    ['ModuleNotFoundError after install', "ModuleNotFoundError: No module named 'foo.utils'", 'build-packaging'],
    [
      'Strange characters in output',
      'Output shows `Ã©` instead of `é` when reading files written on Windows.',
      'encoding-locale',
    ],
    // how users tell what broke, without the routine's textbook words
    [
      'load() raises KeyError instead of ConfigError',
      'We catch ConfigError to show a friendly message.',
      'error-handling',
    ],
    [
      'save() promise never settles',
      'When the disk is full there is no rejection, no error event, nothing.',
      'error-handling',
    ],
    [
      'Unhelpful error on a bad config',
      'It says `invalid type: unit value`, but the error does not say which key.',
      'error-handling',
    ],
    [
      'Root cause missing from RequestFailed',
      'Only our wrapper shows up in the log; the underlying exception is gone.',
      'error-handling',
    ],
    ['sync exits with status 0 when the server is down', 'Nothing was copied.', 'error-handling'],
    [
      'Renamed field breaks callers',
      '`user.created_at` is nil: the field was renamed in 1.8 to `createdAt`.',
      'api-compat',
    ],
    ['get() rejects timeout=', "TypeError: get() got an unexpected keyword argument 'timeout'", 'api-compat'],
    ['Callers break in a patch release', '`parse()` returns a list now; it returned a dict before.', 'api-compat'],
    [
      'Created dates empty after upgrading to 2.0',
      'Every existing row shows no date after the upgrade. New entries are fine.',
      'data-migration',
    ],
    ['Cannot go back to 4.9', '`db:rollback` fails with IrreversibleMigration.', 'data-migration'],
    ['npm install fails with React 19', 'npm ERR! ERESOLVE unable to resolve dependency tree', 'dependency-compat'],
    [
      'KeyError on the first key of a file saved in Notepad',
      "The keys print as `['\\ufeffname', 'port']`.",
      'encoding-locale',
    ],
    [
      'Prices are 1000x off on our German server',
      'With `LC_ALL=de_DE.UTF-8` the parser reads "1.234" as 1234.',
      'encoding-locale',
    ],
    ['Crash on a line with French text', 'panicked: byte index 7 is not a char boundary', 'encoding-locale'],
    [
      'OSError: [Errno 24] after a thousand files',
      'Reading files in a loop stops at about 1020 of them.',
      'performance-resource',
    ],
    ['Goroutine count keeps climbing', 'From 40 goroutines to 50k over a day of streaming.', 'performance-resource'],
    [
      'emitAsync resolves before the handlers are done',
      'So our test of the audit table sees nothing yet.',
      'concurrency-async',
    ],
    ['The counter shows 9 instead of 10', 'When ten of us tap at about the same time.', 'concurrency-async'],
    [
      'Two downloads at once save the same picture',
      'Both files end up with the second photo, about one time in five.',
      'concurrency-async',
    ],
    ['Parser hangs on an unterminated string', 'A missing closing quote and it never returns.', 'edge-input'],
    ['autocorrect turns `return a, b` into a syntax error', '', 'lint-format'],
    ['Required check never reports', 'PRs wait forever on "Waiting for status to be reported".', 'ci-config'],
  ])('%s / %s → a failure that needs %s', (title, body, kind) => {
    expectFailureNeeding(body ? `${title}\n\n${body}` : title, kind);
  });

  it('leave the near misses of those words to other routines', () => {
    const kinds = (task: string) => taskRoutines(task).map((c) => c.kind);
    // a log formatter is no code formatter; a browser that updated itself is no release of the code
    expect(kinds('Timestamps missing\n\nOur JSON formatter prints `"time": null` for every entry.')).not.toContain(
      'lint-format',
    );
    expect(
      kinds('PUT requests throw in Chrome\n\nSince Chrome updated to 105 the request fails: TypeError: duplex member'),
    ).not.toContain('api-compat');
    // a listener that was removed is no public name removed
    expect(kinds('Handler never called\n\nThe listener was removed before the event fired.')).not.toContain(
      'api-compat',
    );
  });

  it('are read from its prose: the options and flags of a fenced reproduction are not its subject', () => {
    const reproduction = '```\ngo test -count=1 -v --config ./app.yaml ./...\n```';
    const issue = `Tests pass alone but fail in a full run\nValues one test sets show up in another.\n${reproduction}`;
    expect(taskRoutines(issue).map((c) => c.kind)).not.toContain('config-env');
    const inProse =
      'The --config flag and the APP_HOME environment variable are ignored\nThe settings file is never read.';
    expect(taskRoutines(inProse)[0]?.kind).toBe('config-env');
  });

  it('read a tilde fence and an unclosed fence as code too, and the prose after a closed one', () => {
    const head = 'Tests pass alone but fail in a full run\nValues one test sets show up in another.';
    for (const fenced of ['~~~sh\ngo test --config ./app.yaml ./...\n~~~', '```\ngo test --config ./app.yaml ./...'])
      expect(taskRoutines(`${head}\n${fenced}`).map((c) => c.kind)).not.toContain('config-env');
    const after = `${head}\n\`\`\`\ngo test ./...\n\`\`\`\nThe --config flag and the APP_HOME environment variable are ignored.`;
    expect(taskRoutines(after).map((c) => c.kind)).toContain('config-env');
  });

  it('still name the lesson an error line inside a fenced block names', () => {
    const issue =
      'Warning after a few requests\n```\n(node:1234) MaxListenersExceededWarning: Possible EventEmitter memory leak detected. 11 close listeners added\n```';
    expect(taskRoutines(issue)[0]?.kind).toBe('performance-resource');
  });
});
