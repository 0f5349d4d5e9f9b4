/**
 * The recall API's wire format (POST /api/v1/recall, POST /api/v1/usage), shared by the App that
 * serves it and the Action that calls it. zod schemas: both sides parse what crosses the wire.
 */
import { z } from 'zod';
import { MEMORY_LEVELS, TASK_KINDS, VISIBILITIES } from './types.js';

export const RECALL_PATH = '/api/v1/recall';
export const USAGE_PATH = '/api/v1/usage';
export const MAX_TASK_LENGTH = 20_000;
export const MAX_TOP_K = 10;

export const recallRequestSchema = z.strictObject({
  task: z.string().trim().min(1, 'must not be empty').max(MAX_TASK_LENGTH),
  top_k: z.number().int().min(1).max(MAX_TOP_K).optional(),
  min_score: z.number().min(0).max(100).optional(),
  level: z.enum(MEMORY_LEVELS).optional(),
});
export type RecallRequest = z.infer<typeof recallRequestSchema>;

const memoryIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a memory id');

export const injectedInsightSchema = z.object({
  id: memoryIdSchema,
  level: z.enum(MEMORY_LEVELS),
  title: z.string(),
  description: z.string(),
  content: z.string(),
  evidence: z.array(z.string()),
  score: z.number(),
  transferred: z.boolean(),
  source: z.object({ repo: z.string(), url: z.string().optional() }).nullable(),
  support: z.number(),
});

/** Relevant insights the requesting repository may not see (their sources are more private): ids only. */
export const withheldSchema = z.object({
  count: z.number().int().min(1),
  ids: z.array(memoryIdSchema).max(50),
  /** the visibility of the repository that asked */
  visibility: z.enum(VISIBILITIES),
});
export type WithheldInsights = z.infer<typeof withheldSchema>;

export const recallResponseSchema = z.object({
  insights: z.array(injectedInsightSchema),
  /** set when fewer than top_k insights came back and more private ones were relevant */
  withheld: withheldSchema.optional(),
  /** what kind of task the server read the task as (its model's reading, when it has one) */
  task_kind: z.enum(TASK_KINDS).optional(),
});
export type RecallResponse = z.infer<typeof recallResponseSchema>;

export const usageRequestSchema = z.strictObject({
  ids: z
    .array(memoryIdSchema)
    .min(1)
    .max(MAX_TOP_K * 5),
  run_id: z
    .union([z.string().regex(/^\d{1,20}$/, 'must be a workflow run id'), z.number().int().positive()])
    .transform(String),
  run_attempt: z.number().int().positive().optional(),
  target: z.string().max(200).optional(),
});
export type UsageRequest = z.input<typeof usageRequestSchema>;

export const usageResponseSchema = z.object({ recorded: z.number().int() });

/** Every error answer: `{ "error": { "code": "...", "message": "..." } }`. */
export const apiErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

/** "field: message" for the first zod issue, e.g. "top_k: Too big: expected number to be <=10". */
export function describeZodError(error: z.ZodError, prefix = ''): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid value';
  const field = issue.path.length > 0 ? issue.path.join('.') : prefix || 'body';
  return `${prefix && issue.path.length > 0 ? `${prefix}.` : ''}${field}: ${issue.message}`;
}
