/** codex: a marker section in `$CODEX_HOME/AGENTS.md` (Codex's global instructions); `prompt-file` too. */
import path from 'node:path';
import { injectMarkedFile } from './marked-file.js';
import type { InjectionTarget } from './target.js';

export const codexTarget: InjectionTarget = {
  name: 'codex',
  maxChars: 8_000,
  async inject(rendered, env) {
    const file = path.join(env.codexHome, 'AGENTS.md');
    return { files: [await injectMarkedFile(file, rendered, env.dryRun, '$CODEX_HOME/AGENTS.md')] };
  },
};
