/**
 * The longest task recall reads, without the wire schemas of ../recall-api.ts (which import zod):
 * the CLI's `recall` reads it here so that its start loads no zod. The same number as
 * recall-api.ts's MAX_TASK_LENGTH (a test holds them equal; recall-api.ts can import it from here
 * the next time the Action bundle is rebuilt for a change of its own).
 */
export const MAX_TASK_LENGTH = 20_000;
