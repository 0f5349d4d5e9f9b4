/**
 * The screen of a memory read from a pool file (import, the Action's pool-file mode, \`mcp --pool\`):
 * no instruction-like text (security/screen.ts), and an insight must be abstract: one that names a
 * file path, a code identifier, a line number or a quoted string, whoever it belongs to, is refused
 * (\`specific: …\`; abstraction/specificity.ts).
 */
import { concreteReason } from '../abstraction/specificity.js';
import { memoryTexts, screenMemory, type ScreenOptions, type ScreenResult } from '../security/screen.js';

export function screenPoolMemory(
  memory: { level?: string; title: string; description: string; content: string; body?: unknown },
  options: ScreenOptions = {},
): ScreenResult {
  const screened = screenMemory(memory, options);
  if (!screened.ok || memory.level !== 'insight') return screened;
  const concrete = concreteReason(memoryTexts(memory));
  return concrete === undefined ? screened : { ok: false, reason: `specific: ${concrete}` };
}
