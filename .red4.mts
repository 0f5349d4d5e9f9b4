import { createRedactor } from '/work/main/src/security/redact.ts';
import { secretLintProfiler } from '@secretlint/profiler';
import { performance } from 'node:perf_hooks';
const r = createRedactor();
const text = 'diff src/a.ts\n+export function x(input: string) { return input.trim(); }\n'.repeat(40);
const clear = process.argv[2] === 'clear';
for (let round = 0; round < 5; round++) {
  const t = performance.now();
  for (let i = 0; i < 400; i++) {
    await r.redact(text + i);
    if (clear) { (secretLintProfiler as any).entries.length = 0; (secretLintProfiler as any).measures.length = 0; performance.clearMarks(); performance.clearMeasures(); }
  }
  await new Promise((res) => setTimeout(res, 10));
  console.log(`round ${round}: ${((performance.now() - t) / 400).toFixed(2)} ms/call, entries ${(secretLintProfiler as any).entries.length}`);
}
