/** openhands: an always-loaded repository microagent, `.openhands/microagents/memory-transfer.md`. */
import path from 'node:path';
import { writeIfChanged, type InjectionTarget } from './target.js';

export const OPENHANDS_FILE = '.openhands/microagents/memory-transfer.md';
const FRONT_MATTER = '---\nname: memory-transfer\ntype: repo\nagent: CodeActAgent\n---\n\n';

export const openhandsTarget: InjectionTarget = {
  name: 'openhands',
  maxChars: 8_000,
  async inject(rendered, env) {
    const file = path.join(env.workspace, OPENHANDS_FILE);
    return { files: [await writeIfChanged(file, `${FRONT_MATTER}${rendered.markdown}`, env.dryRun)] };
  },
};
