/** The `target` input → its injection adapter. */
import { InputError } from '../../core/errors.js';
import { agentsMdTarget } from './agents-md.js';
import { claudeTarget } from './claude.js';
import { codexTarget } from './codex.js';
import { copilotTarget } from './copilot.js';
import { fileTarget } from './file.js';
import { noneTarget } from './none.js';
import { openhandsTarget } from './openhands.js';
import type { InjectionTarget } from './target.js';

export const TARGET_NAMES = ['agents-md', 'claude', 'codex', 'copilot', 'openhands', 'none'] as const;

const TARGETS: Record<(typeof TARGET_NAMES)[number], InjectionTarget> = {
  'agents-md': agentsMdTarget,
  claude: claudeTarget,
  codex: codexTarget,
  copilot: copilotTarget,
  openhands: openhandsTarget,
  none: noneTarget,
};

export function targetFor(value: string): InjectionTarget {
  const name = value.trim();
  if (name.startsWith('file:')) {
    const file = name.slice('file:'.length).trim();
    if (file === '') throw new InputError('target: "file:" needs a path, e.g. file:CONVENTIONS.md');
    return fileTarget(file);
  }
  const target = (TARGETS as Record<string, InjectionTarget | undefined>)[name];
  if (!target) throw new InputError(`target: "${value}" is not one of ${TARGET_NAMES.join(', ')}, file:PATH`);
  return target;
}

export type { InjectionEnv, InjectionResult, InjectionTarget } from './target.js';
