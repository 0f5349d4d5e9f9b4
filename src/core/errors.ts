/** Typed errors. Caught only at the edges (CLI, App, Action), where they become one clear line. */

export class MemoryTransferError extends Error {
  constructor(
    message: string,
    /** a stable machine-readable code */
    readonly code: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad input from outside: a flag, a file, a payload. The message names what is wrong. */
export class InputError extends MemoryTransferError {
  constructor(message: string, code = 'bad-input') {
    super(message, code);
  }
}

/**
 * The pool cannot be opened or written: corrupt, locked, newer (or, for a read-only command, older)
 * schema, another program's database (foreign), no pool at all (not-found).
 */
export class StoreError extends MemoryTransferError {
  constructor(
    message: string,
    code: 'corrupt' | 'locked' | 'newer-schema' | 'older-schema' | 'foreign' | 'io' | 'not-found' | 'conflict',
  ) {
    super(message, code);
  }
}

/** A request is refused: unauthenticated (401) or forbidden (403). */
export class AuthError extends MemoryTransferError {
  constructor(
    message: string,
    readonly status: 401 | 403,
  ) {
    super(message, status === 401 ? 'unauthenticated' : 'forbidden');
  }
}

export class NotFoundError extends MemoryTransferError {
  constructor(message: string) {
    super(message, 'not-found');
  }
}

/** An upstream (LLM, GitHub) failed; retryable says whether trying later may help. */
export class UpstreamError extends MemoryTransferError {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message, 'upstream');
  }
}

/** Formats any error as one line for a user, without a stack trace. */
export function describeError(error: unknown): string {
  if (error instanceof MemoryTransferError) return error.message;
  if (error instanceof Error) return error.message.split('\n')[0] ?? String(error);
  return String(error);
}

/**
 * The model endpoint refused the API key (HTTP 401 or 403): every later call would fail the same
 * way, so a learn run stops instead of falling back to the rules for every fix. Retryable: a job
 * retried after the key is fixed succeeds. (`answered`, not `status`: it is not a GitHub status.)
 */
export class LlmAuthError extends UpstreamError {
  constructor(readonly answered: 401 | 403) {
    super(`the model endpoint refused the API key (${answered}): check OPENAI_API_KEY`, true);
  }
}
