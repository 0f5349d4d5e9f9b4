/**
 * The repositories' configuration, read once and kept for a short time per installation and
 * repository. Every job used to read the repository's `.github/memory-transfer.yml` and the org's
 * `.github` file (about half of the App's GitHub calls); now jobs of one repository within
 * CONFIG_TTL_MS share one read. A push that changes the repository's file drops that repository;
 * a push that changes the org's `.github` file drops every repository of the owner (each may fall
 * back to it or extend it). Concurrent jobs share one read in flight; a failed read is not kept.
 */
import type { ParsedRepoConfig } from '../../core/repo-config.js';
import type { Clock } from '../../ports/index.js';

/** How long a read configuration is used without reading it again (a push drops it sooner). */
export const CONFIG_TTL_MS = 5 * 60_000;
/** Repositories kept at most (the oldest read is dropped first). */
const MAX_ENTRIES = 10_000;

export class ConfigCache {
  private readonly entries = new Map<string, { at: number; value: Promise<ParsedRepoConfig> }>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = CONFIG_TTL_MS,
  ) {}

  /** The repository's configuration: from the cache while fresh, else read by `load` (once for all callers). */
  get(installationId: number, repo: string, load: () => Promise<ParsedRepoConfig>): Promise<ParsedRepoConfig> {
    const key = entryKey(installationId, repo);
    const now = this.clock.now().getTime();
    const known = this.entries.get(key);
    if (known && now - known.at < this.ttlMs) return known.value;
    const value = load();
    this.entries.delete(key);
    this.entries.set(key, { at: now, value });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }

  /** The repository's file changed. */
  dropRepo(installationId: number, repo: string): void {
    this.entries.delete(entryKey(installationId, repo));
  }

  /** The owner's `.github` file changed: every repository of the owner in this installation. */
  dropOwner(installationId: number, owner: string): void {
    const prefix = `${installationId}:${owner.toLowerCase()}/`;
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}

function entryKey(installationId: number, repo: string): string {
  return `${installationId}:${repo.toLowerCase()}`;
}
