/**
 * The listener that keeps PostgreSQL replicas' caches exact (src/store/pg-change-listener.ts), on
 * the real server: it counts as listening only once it has heard its own test notification.
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { CHANGE_CHANNEL, ChangeListener, type ChangeListenerOptions } from '../../src/store/pg-change-listener.js';

const URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const running: ChangeListener[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((l) => l.stop()));
});

function recorder() {
  const events: string[] = [];
  const warnings: string[] = [];
  const options: ChangeListenerOptions = {
    location: URL,
    schema: 'mt_listener_test',
    logger: { debug() {}, info() {}, warn: (message) => warnings.push(message), error() {} },
    onChange: (tenant, id) => events.push(`change ${tenant} ${id}`),
    onListening: () => events.push('listening'),
    onLost: () => events.push('lost'),
    notify: async (payload) => {
      const client = new pg.Client(URL);
      await client.connect();
      await client.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, payload]);
      await client.end();
    },
    retryMs: 60_000,
    probeTimeoutMs: 300,
  };
  return { events, warnings, options };
}

describe('PostgreSQL change listener', () => {
  it('listens once its test notification came back, then reports changes of its own schema only', async () => {
    const { events, options } = recorder();
    const listener = new ChangeListener(options);
    running.push(listener);
    await listener.start();
    expect(listener.listening).toBe(true);
    expect(events).toEqual(['listening']);
    await options.notify(JSON.stringify({ schema: 'mt_other_schema', tenant: 'acme', id: 'm1' }));
    await options.notify('not json');
    await options.notify(JSON.stringify({ schema: 'mt_listener_test', tenant: 'acme', id: 'm2' }));
    await expect.poll(() => events).toEqual(['listening', 'change acme m2']);
  });

  it('never counts as listening when its test notification does not arrive (a pooler that drops them)', async () => {
    const { events, warnings, options } = recorder();
    const listener = new ChangeListener({ ...options, notify: async () => undefined });
    running.push(listener);
    await listener.start();
    expect(listener.listening).toBe(false);
    expect(events).toEqual(['lost']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/not heard/);
  });
});
