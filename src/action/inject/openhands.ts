/** openhands: an always-loaded repository microagent, `.openhands/microagents/memory-transfer.md`. */
import { resolveWritableInWorkspace } from '../workspace-path.js';
import { writeOwnedFile, type InjectionTarget } from './target.js';

export const OPENHANDS_FILE = '.openhands/microagents/memory-transfer.md';
const FRONT_MATTER = '---\nname: memory-transfer\ntype: repo\nagent: CodeActAgent\n---\n\n';

export const openhandsTarget: InjectionTarget = {
  name: 'openhands',
  maxChars: 8_000,
  async inject(rendered, env) {
    const file = resolveWritableInWorkspace(env.workspace, OPENHANDS_FILE, 'target');
    return { files: [await writeOwnedFile(file, FRONT_MATTER, rendered.markdown, env.dryRun)] };
  },
};
