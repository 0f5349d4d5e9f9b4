/** agents-md: a marker-delimited section in the repository's AGENTS.md (created if missing). */
import { resolveWritableInWorkspace } from '../workspace-path.js';
import { injectMarkedFile } from './marked-file.js';
import type { InjectionTarget } from './target.js';

export const agentsMdTarget: InjectionTarget = {
  name: 'agents-md',
  // Codex reads at most 32 KiB of AGENTS.md files in total; leave most of it to the user's own text
  maxChars: 8_000,
  async inject(rendered, env) {
    const file = resolveWritableInWorkspace(env.workspace, 'AGENTS.md', 'target');
    return { files: [await injectMarkedFile(file, rendered, env.dryRun, 'AGENTS.md')] };
  },
};
