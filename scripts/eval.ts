/**
 * npm run eval [-- path/to/fixes.jsonl] [--json] [--verbose]
 *
 * The protocol of ../shared/eval-dev/README.md, offline (rule-based abstraction, lexical recall):
 * 1. learn every fix of the set into one fresh temporary SQLite pool (tenant "eval");
 * 2. for each fix, recall top 3 insights with its subject as the task, excluding insights whose
 *    every source is in the query's repository;
 * 3. score precision@3, lenient and strict. A merged insight has several source fixes: its
 *    sources for a query are its provenance entries outside the query's repository, and the hit
 *    counts as the share of those sources that are relevant (the expected relevance of one source
 *    drawn at random), so merging never scores better than listing the sources one by one;
 * 4. print the figures next to the BM25 and random baselines (baseline.mjs of the set), and the
 *    number of insights that name a path, symbol or string of one of their source fixes.
 * The labels are read here, by the scorer, and nowhere else: the engine learns from the fixes
 * file through the ordinary fixes-file source, which drops them unread.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRulesAbstractor } from '../src/abstraction/rules-abstractor.js';
import { leaksSource } from '../src/abstraction/specificity.js';
import type { FusionMethod } from '../src/core/ranking.js';
import type { Fix, Memory, RecallHit } from '../src/core/types.js';
import { createRedactor } from '../src/security/redact.js';
import { learnFixes } from '../src/services/learn.js';
import { silentLogger, systemClock } from '../src/services/ports.js';
import { recall } from '../src/services/recall.js';
import { readFixesFile } from '../src/sources/fixes-file.js';
import { openStore } from '../src/store/open-store.js';
import type { Store } from '../src/store/store.js';

const TENANT = 'eval';
const K = 3;
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface Labels {
  primary: string;
  secondary: string | null;
}

function key(repo: string, ref: string): string {
  return `${repo.toLowerCase()}@${ref.toLowerCase()}`;
}

/** The answer key, read only by this scorer. */
function readLabels(path: string): Map<string, Labels> {
  const labels = new Map<string, Labels>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const record = JSON.parse(line) as { repo: string; sha: string; labels: Labels };
    labels.set(key(record.repo, record.sha), record.labels);
  }
  return labels;
}

function lenient(a: Labels, b: Labels): boolean {
  const real = (l: Labels) =>
    [l.primary, l.secondary].filter((x): x is string => x !== null && x !== 'regression-test');
  const bs = real(b);
  return real(a).some((x) => bs.includes(x));
}

function strict(a: Labels, b: Labels): boolean {
  return a.primary === b.primary;
}

/** Relevance of one hit for a query: the share of its sources outside the query's repo that are relevant. */
function hitRelevance(
  hit: RecallHit,
  query: Fix,
  labels: Map<string, Labels>,
  relevant: (a: Labels, b: Labels) => boolean,
): number {
  const queryLabels = labels.get(key(query.repo, query.ref));
  const sources = hit.memory.provenance.filter((p) => p.repo.toLowerCase() !== query.repo.toLowerCase());
  if (!queryLabels || sources.length === 0) return 0;
  let sum = 0;
  for (const source of sources) {
    const sourceLabels = labels.get(key(source.repo, source.ref));
    if (sourceLabels && relevant(queryLabels, sourceLabels)) sum += 1;
  }
  return sum / sources.length;
}

interface Score {
  lenient: number;
  strict: number;
  /** queries that got fewer than K results */
  short: number;
}

async function score(
  store: Store,
  fixes: Fix[],
  labels: Map<string, Labels>,
  fusion: FusionMethod,
  verbose = false,
): Promise<Score> {
  let len = 0;
  let str = 0;
  let short = 0;
  for (const fix of fixes) {
    const hits = await recall({ store, logger: silentLogger, clock: systemClock }, { tenant: TENANT }, fix.title, {
      k: K,
      excludeRepo: fix.repo,
      fusion,
    });
    if (hits.length < K) short += 1;
    const relevance = hits.map((h) => hitRelevance(h, fix, labels, lenient));
    len += relevance.reduce((s, r) => s + r, 0) / K;
    if (verbose) {
      const l = labels.get(key(fix.repo, fix.ref));
      console.log(`${l?.primary}/${l?.secondary ?? '-'}  ${fix.title.slice(0, 70)}`);
      hits.forEach((h, i) => {
        const routines = h.memory.tags.filter((t) => t.startsWith('routine:')).join(',');
        console.log(`    ${relevance[i]!.toFixed(2)} ${h.score.toFixed(3)} ${routines}`);
      });
    }
    str += hits.reduce((s, h) => s + hitRelevance(h, fix, labels, strict), 0) / K;
  }
  return { lenient: len / fixes.length, strict: str / fixes.length, short };
}

function countLeaks(insights: Memory[], fixesByKey: Map<string, Fix>): { count: number; examples: string[] } {
  let count = 0;
  const examples: string[] = [];
  for (const insight of insights) {
    const text = [insight.title, insight.description, insight.content].join('\n');
    const leaks = insight.provenance.flatMap((p) => {
      const fix = fixesByKey.get(key(p.repo, p.ref));
      return fix ? leaksSource(text, fix) : [];
    });
    if (leaks.length > 0) {
      count += 1;
      if (examples.length < 5) examples.push(`${insight.id}: ${leaks.slice(0, 3).join(', ')}`);
    }
  }
  return { count, examples };
}

function baselines(path: string): { bm25?: [number, number]; random?: [number, number]; ceiling?: [number, number] } {
  const script = join(dirname(path), 'baseline.mjs');
  if (!existsSync(script)) return {};
  const out = execFileSync(process.execPath, [script, path], { encoding: 'utf8' });
  const pick = (label: RegExp): [number, number] | undefined => {
    const m = new RegExp(`${label.source}\\s+([0-9.]+)\\s+([0-9.]+)`).exec(out);
    return m ? [Number(m[1]), Number(m[2])] : undefined;
  };
  const bm25 = pick(/BM25[^\n]*\)/);
  const random = pick(/random expectation/);
  const ceiling = pick(/ceiling \(perfect ranking\)/);
  return { ...(bm25 && { bm25 }), ...(random && { random }), ...(ceiling && { ceiling }) };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const pathArg = args.find((a) => !a.startsWith('--'));
  const path = resolve(pathArg ?? join(REPO_ROOT, '..', 'shared', 'eval-dev', 'fixes.jsonl'));
  if (!existsSync(path)) {
    console.error(`eval: no fixes file at ${path} (pass its path: npm run eval -- path/to/fixes.jsonl)`);
    process.exit(2);
  }

  const fixes = await readFixesFile(path, { tenant: TENANT, visibility: 'public' });
  const labels = readLabels(path);
  const dir = mkdtempSync(join(tmpdir(), 'memory-transfer-eval-'));
  const store = await openStore(join(dir, 'pool.db'));
  try {
    const started = Date.now();
    const summary = await learnFixes(
      {
        store,
        abstractor: createRulesAbstractor(),
        redactor: createRedactor(),
        logger: silentLogger,
        clock: systemClock,
      },
      fixes,
    );
    const learnSeconds = (Date.now() - started) / 1000;
    const insights = await store.listMemories(TENANT, { level: ['insight'] });
    const weighted = await score(store, fixes, labels, 'weighted', args.includes('--verbose'));
    const rrf = await score(store, fixes, labels, 'rrf');
    const leaks = countLeaks(insights, new Map(fixes.map((f) => [key(f.repo, f.ref), f])));
    const base = baselines(path);
    const result = {
      fixes: fixes.length,
      insights: insights.length,
      merged: summary.merged,
      rejected: summary.rejected,
      learnSeconds,
      precisionAt3: { weighted, rrf },
      baselines: base,
      insightsNamingTheirSource: leaks.count,
    };
    if (json) {
      console.log(JSON.stringify(result, null, 2));
      return;
    }
    const row = (name: string, l?: number, s?: number) =>
      `  ${name.padEnd(44)} ${l === undefined ? '   -  ' : l.toFixed(3)}   ${s === undefined ? '  -  ' : s.toFixed(3)}`;
    console.log(
      `eval-dev: ${fixes.length} fixes → ${insights.length} insights (${summary.merged} merges, ${summary.rejected} rejected) in ${learnSeconds.toFixed(1)} s`,
    );
    console.log(`precision@${K}, mean over ${fixes.length} queries (other repositories only)`);
    console.log('                                               lenient  strict');
    console.log(row('memory-transfer, offline (weighted fusion)', weighted.lenient, weighted.strict));
    console.log(row('memory-transfer, offline (RRF fusion)', rrf.lenient, rrf.strict));
    console.log(row('BM25 (subject -> subject+paths) baseline', base.bm25?.[0], base.bm25?.[1]));
    console.log(row('random expectation', base.random?.[0], base.random?.[1]));
    console.log(row('ceiling (perfect ranking)', base.ceiling?.[0], base.ceiling?.[1]));
    console.log(`queries with fewer than ${K} results: ${weighted.short} (weighted), ${rrf.short} (rrf)`);
    console.log(`insights naming a path, symbol or string of their source fix: ${leaks.count}`);
    for (const example of leaks.examples) console.log(`  ${example}`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
