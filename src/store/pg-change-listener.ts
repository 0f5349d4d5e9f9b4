/**
 * Change notifications between App replicas that share one PostgreSQL pool.
 *
 * Triggers on `memories` and `vectors` (POSTGRES_CHANGE_NOTIFY in migrations.ts) call pg_notify
 * on the channel CHANGE_CHANNEL with `{"schema","tenant","id"}` for every memory or vector written or
 * deleted; PostgreSQL delivers them when the writing transaction commits, in commit order, to every
 * connection that LISTENs. Each store keeps one such connection: while it is up, the store's caches
 * stay exact across replicas (a change drops what was cached about that memory within milliseconds).
 * When the connection is lost, notifications may have been missed: the store is told (`onLost`),
 * and the listener reconnects with a growing delay, telling the store again once it is back
 * (`onListening`), since what changed in between is unknown.
 *
 * Hearing is checked, not assumed: before it counts as listening, and then every PROBE_EVERY_MS,
 * the listener sends a test notification through the store's own connections and must hear it
 * within PROBE_TIMEOUT_MS. A connection pooler in transaction mode accepts LISTEN but never delivers;
 * such a listener never counts as listening, so the store never trusts its caches.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../ports/index.js';

export const CHANGE_CHANNEL = 'memory_transfer_changes';

export interface ChangeListenerOptions {
  /** the connection string (the same database as the store's pool) */
  location: string;
  /** only changes to this schema's tables count */
  schema: string;
  logger: Logger;
  /** a memory (or its vector) of this tenant and id changed or was deleted */
  onChange(tenant: string, id: string): void;
  /** the connection is up and listening (again): anything may have changed before */
  onListening(): void;
  /** the connection is lost: changes are no longer heard */
  onLost(): void;
  /** sends a notification on CHANGE_CHANNEL through the store's connections (the probe) */
  notify(payload: string): Promise<void>;
  /** first delay before reconnecting (doubles up to 30 s); default 1,000 ms */
  retryMs?: number;
  /** how long a test notification may take to arrive; default PROBE_TIMEOUT_MS */
  probeTimeoutMs?: number;
}

const MAX_RETRY_MS = 30_000;
export const PROBE_EVERY_MS = 30_000;
export const PROBE_TIMEOUT_MS = 5_000;

export class ChangeListener {
  private client: pg.Client | undefined;
  private up = false;
  private stopped = false;
  private retryMs: number;
  private timer: NodeJS.Timeout | undefined;
  private probing: NodeJS.Timeout | undefined;
  /** probes sent and not heard yet: nonce → what to do when heard */
  private readonly probes = new Map<string, () => void>();
  /** said that notifications are not heard (once per deaf spell) */
  private warned = false;

  constructor(private readonly options: ChangeListenerOptions) {
    this.retryMs = options.retryMs ?? 1_000;
  }

  private get probeTimeoutMs(): number {
    return this.options.probeTimeoutMs ?? PROBE_TIMEOUT_MS;
  }

  /** true while changes are heard */
  get listening(): boolean {
    return this.up;
  }

  /** Connects and listens; a failure is logged and retried later (the store works without it). */
  async start(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.options.location,
      // names the pool's schema: an operator can tell the listeners apart in pg_stat_activity
      application_name: `memory-transfer-listener:${this.options.schema}`.slice(0, 63),
    });
    this.client = client;
    client.on('notification', (message) => this.heard(message.payload));
    client.on('error', (error) => this.lost(client, error.message));
    client.on('end', () => this.lost(client, 'connection ended'));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      this.lost(client, (error as Error).message);
      return;
    }
    if (!(await this.probe())) {
      this.lost(
        client,
        `a test notification did not arrive within ${this.probeTimeoutMs} ms (a connection pooler in transaction mode?)`,
      );
      return;
    }
    if (this.client !== client || this.stopped) return;
    this.up = true;
    this.warned = false;
    this.retryMs = this.options.retryMs ?? 1_000;
    this.options.onListening();
    clearInterval(this.probing);
    this.probing = setInterval(() => {
      void this.probe().then((heard) => {
        if (!heard && this.client === client) this.lost(client, 'a test notification did not arrive');
      });
    }, PROBE_EVERY_MS);
    this.probing.unref();
  }

  /** Sends a test notification through the store's connections: is it heard? */
  private async probe(): Promise<boolean> {
    const nonce = randomUUID();
    const heard = new Promise<boolean>((resolve) => {
      this.probes.set(nonce, () => resolve(true));
      setTimeout(() => resolve(false), this.probeTimeoutMs).unref();
    });
    try {
      await this.options.notify(JSON.stringify({ schema: this.options.schema, probe: nonce }));
      return await heard;
    } catch {
      return false;
    } finally {
      this.probes.delete(nonce);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.probing);
    const client = this.client;
    this.client = undefined;
    this.up = false;
    await client?.end().catch(() => undefined);
  }

  private heard(payload: string | undefined): void {
    let change: { schema?: unknown; tenant?: unknown; id?: unknown; probe?: unknown };
    try {
      change = JSON.parse(payload ?? '') as typeof change;
    } catch {
      return;
    }
    if (change.schema !== this.options.schema) return;
    if (typeof change.probe === 'string') return this.probes.get(change.probe)?.();
    if (typeof change.tenant === 'string' && typeof change.id === 'string')
      this.options.onChange(change.tenant, change.id);
  }

  private lost(client: pg.Client, reason: string): void {
    if (this.client !== client) return; // an old connection's late event
    this.client = undefined;
    const wasUp = this.up;
    this.up = false;
    clearInterval(this.probing);
    client.end().catch(() => undefined);
    if (this.stopped) return;
    if (wasUp || !this.warned) {
      this.warned = true;
      this.options.logger.warn(
        "PostgreSQL change notifications are not heard: other replicas' writes show within the search TTL, memories and recall answers are not cached until they are",
        { reason },
      );
    }
    this.options.onLost();
    this.timer = setTimeout(() => void this.start(), this.retryMs);
    this.timer.unref();
    this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
  }
}

/**
 * The triggers that send the notifications, installed by every migrate() of a PostgreSQL pool
 * (idempotent, no schema version: SQLite has no use for them). A transaction that writes one
 * memory many times sends one notification for it (PostgreSQL folds identical ones).
 */
export const CHANGE_NOTIFY_SQL = `
CREATE OR REPLACE FUNCTION memory_transfer_memory_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed RECORD;
BEGIN
  IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
  PERFORM pg_notify('${CHANGE_CHANNEL}',
    json_build_object('schema', TG_TABLE_SCHEMA, 'tenant', changed.tenant, 'id', changed.id)::text);
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION memory_transfer_vector_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_seq BIGINT;
BEGIN
  IF TG_OP = 'DELETE' THEN changed_seq := OLD.seq; ELSE changed_seq := NEW.seq; END IF;
  -- a vector deleted with its memory: the memory's own trigger has told already
  EXECUTE format('SELECT pg_notify(%L, json_build_object(''schema'', %L, ''tenant'', tenant, ''id'', id)::text)
    FROM %I.memories WHERE seq = $1', '${CHANGE_CHANNEL}', TG_TABLE_SCHEMA, TG_TABLE_SCHEMA) USING changed_seq;
  RETURN NULL;
END $$;
-- the functions are replaced above (their triggers keep pointing at them); the triggers are only
-- created where missing, so an App starting beside running replicas never locks the tables
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'memories_changed' AND tgrelid = 'memories'::regclass) THEN
    CREATE TRIGGER memories_changed AFTER INSERT OR UPDATE OR DELETE ON memories
      FOR EACH ROW EXECUTE FUNCTION memory_transfer_memory_changed();
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'vectors_changed' AND tgrelid = 'vectors'::regclass) THEN
    CREATE TRIGGER vectors_changed AFTER INSERT OR UPDATE OR DELETE ON vectors
      FOR EACH ROW EXECUTE FUNCTION memory_transfer_vector_changed();
  END IF;
END $$;
`;
