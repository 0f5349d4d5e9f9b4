/**
 * Probot wiring: event → thin handler. The HTTP intake (src/app/intake.ts) records each verified
 * delivery as a WEBHOOK_JOB; the worker hands it to Probot (`app.receive`) here, and the handlers
 * only validate, record durable jobs and return; the worker does the slow work. Tests may call
 * `probot.receive` directly: the handlers are the same.
 */
import type { Probot } from 'probot';
import { z } from 'zod';
import { unpackLegacyBody, WEBHOOK_JOB } from './intake.js';
import { PermanentJobError } from './worker.js';
import type { AppDeps } from './deps.js';
import { registerLearningHandlers } from './handlers/learning.js';
import { registerInteractionHandlers } from './handlers/interaction.js';
import { registerOutcomeHandlers } from './handlers/outcomes.js';
import { registerStalenessHandlers } from './handlers/staleness.js';
import { registerConfigChangeHandlers } from './handlers/config-changes.js';

/** Which deliveries the App has a handler for (the intake records only those). */
export interface HandledEvents {
  handles(name: string, action: string | undefined): boolean;
}

/** Wraps `app.on` to note each event name (and event.action) a handler is registered for. */
function trackHandledEvents(app: Probot): HandledEvents {
  const names = new Set<string>();
  const on = app.on;
  app.on = ((events: string | string[], callback: never) => {
    for (const event of Array.isArray(events) ? events : [events]) names.add(event);
    return on(events as never, callback);
  }) as typeof app.on;
  return {
    handles: (name, action) =>
      names.has('*') || names.has(name) || (action !== undefined && names.has(`${name}.${action}`)),
  };
}

const WebhookDeliveryJob = z.discriminatedUnion('encoding', [
  z.object({ id: z.string().min(1), name: z.string().min(1), encoding: z.literal('job-body') }),
  // recorded by versions before the body became the job's raw bytes
  z.object({
    id: z.string().min(1),
    name: z.string().min(1),
    encoding: z.literal('deflate-raw-base64'),
    body: z.string(),
  }),
]);

/** `onHandled` receives which deliveries the App handles, once its handlers are registered (the intake uses it). */
export function createApp(deps: AppDeps, onHandled?: (events: HandledEvents) => void) {
  return (app: Probot): void => {
    const handled = trackHandledEvents(app);
    // a delivery recorded by the intake (src/app/intake.ts), verified there: run the handlers
    deps.queue.register(WEBHOOK_JOB, async (raw, job) => {
      const parsed = WebhookDeliveryJob.safeParse(raw);
      if (!parsed.success) throw new PermanentJobError('webhook delivery: the recorded job is malformed');
      const { id, name } = parsed.data;
      let payload: unknown;
      try {
        const delivery = parsed.data;
        if (delivery.encoding === 'deflate-raw-base64') payload = JSON.parse(unpackLegacyBody(delivery.body));
        else if (job.body) payload = JSON.parse(job.body.toString('utf8'));
        else throw new Error('no body');
      } catch {
        throw new PermanentJobError(`webhook delivery ${id}: the recorded body does not read back as JSON`);
      }
      await app.receive({ id, name, payload } as Parameters<Probot['receive']>[0]);
    });
    registerLearningHandlers(app, deps);
    registerInteractionHandlers(app, deps);
    registerOutcomeHandlers(app, deps);
    registerStalenessHandlers(app, deps, { intervalMs: deps.settings.stalenessSweepMs });
    registerConfigChangeHandlers(app, deps);
    onHandled?.(handled);
  };
}
