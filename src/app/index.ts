/**
 * Probot wiring: event → thin handler. Handlers only validate, record a durable job and return;
 * the worker does the slow work.
 */
import type { Probot } from 'probot';
import type { AppDeps } from './deps.js';
import { registerLearningHandlers } from './handlers/learning.js';
import { registerInteractionHandlers } from './handlers/interaction.js';
import { registerOutcomeHandlers } from './handlers/outcomes.js';

export function createApp(deps: AppDeps) {
  return (app: Probot): void => {
    registerLearningHandlers(app, deps);
    registerInteractionHandlers(app, deps);
    registerOutcomeHandlers(app, deps);
  };
}
