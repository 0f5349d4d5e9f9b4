// Owner: App core (fix events, installation and repository events, durable jobs). Placeholder.
import type { Probot } from 'probot';
import type { AppDeps } from '../deps.js';

export function registerLearningHandlers(_app: Probot, _deps: AppDeps): void {}
