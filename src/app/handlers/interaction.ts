// Owner: App interaction (comments, commands, reactions, review dashboard). Placeholder.
import type { Probot } from 'probot';
import type { AppDeps } from '../deps.js';

export function registerInteractionHandlers(_app: Probot, _deps: AppDeps): void {}
