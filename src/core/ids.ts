import { sha256Hex } from './sha256.js';

/**
 * A short, stable memory id derived from where it was first learned, so learning the same fix
 * twice yields the same ids (idempotent learn). "m" + 10 hex characters.
 */
export function memoryId(tenant: string, repo: string, ref: string, level: string, index = 0): string {
  const digest = sha256Hex(`${tenant}\n${repo.toLowerCase()}\n${ref}\n${level}\n${index}`);
  return `m${digest.slice(0, 10)}`;
}

/** The tenant (org) of an owner/name repository, lower-cased. */
export function tenantOf(repo: string): string {
  return (repo.split('/')[0] ?? repo).toLowerCase();
}
