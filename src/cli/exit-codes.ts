/**
 * The CLI's exit codes (docs/cli.md). Typed errors are mapped here, at the edge, and nowhere else.
 */
import { AuthError, InputError, NotFoundError, StoreError, UpstreamError } from '../core/errors.js';

export const EXIT = {
  ok: 0,
  /** the work failed: an upstream (LLM, GitHub) or an unexpected error */
  failed: 1,
  /** bad usage or input: unknown flag, bad value, unreadable or malformed file, unknown id */
  usage: 2,
  /** the pool cannot be used: corrupt, locked, written by a newer version */
  pool: 3,
  /** recall --fail-empty found nothing */
  empty: 4,
} as const;

export function exitCodeFor(error: unknown): number {
  if (error instanceof StoreError) return error.code === 'not-found' ? EXIT.usage : EXIT.pool;
  if (error instanceof InputError || error instanceof NotFoundError) return EXIT.usage;
  if (error instanceof AuthError || error instanceof UpstreamError) return EXIT.failed;
  return EXIT.failed;
}
