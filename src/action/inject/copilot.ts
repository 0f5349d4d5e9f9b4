/**
 * copilot: `.github/instructions/memory-transfer.instructions.md`, a file the action owns, read by
 * the Copilot coding agent and by Copilot code review (which reads only the first 4,000 characters).
 */
import { resolveWritableInWorkspace } from '../workspace-path.js';
import { writeOwnedFile, type InjectionTarget } from './target.js';

export const COPILOT_FILE = '.github/instructions/memory-transfer.instructions.md';
export const COPILOT_LIMIT = 4_000;
const FRONT_MATTER = '---\napplyTo: "**"\n---\n\n';

export const copilotTarget: InjectionTarget = {
  name: 'copilot',
  maxChars: COPILOT_LIMIT - FRONT_MATTER.length,
  async inject(rendered, env) {
    const file = resolveWritableInWorkspace(env.workspace, COPILOT_FILE, 'target');
    return { files: [await writeOwnedFile(file, FRONT_MATTER, rendered.markdown, env.dryRun)] };
  },
};
