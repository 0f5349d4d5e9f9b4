/** file:PATH: a marker section in any file of the workspace (Aider's CONVENTIONS.md, a prompt file…). */
import { refuseVcsPath, resolveWritableInWorkspace } from '../workspace-path.js';
import { injectMarkedFile } from './marked-file.js';
import type { InjectionTarget } from './target.js';

export function fileTarget(userPath: string): InjectionTarget {
  refuseVcsPath(userPath, 'target');
  return {
    name: `file:${userPath}`,
    maxChars: 8_000,
    async inject(rendered, env) {
      const file = resolveWritableInWorkspace(env.workspace, userPath, 'target');
      return { files: [await injectMarkedFile(file, rendered, env.dryRun, userPath)] };
    },
  };
}
