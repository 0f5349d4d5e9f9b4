/**
 * claude: outputs only (`insights` for `--append-system-prompt` or the `prompt` input). Never
 * writes CLAUDE.md: claude-code-action restores it from the base branch.
 */
import type { InjectionTarget } from './target.js';

export const claudeTarget: InjectionTarget = {
  name: 'claude',
  // goes through a command line argument: keep it modest
  maxChars: 6_000,
  argumentSafe: true,
  async inject() {
    return { files: [] };
  },
};
