/**
 * The pool file's line schemas as zod schemas: the reference the hand-written checks of
 * src/core/retrieval/pool-check.ts are compared with (__tests__/core/retrieval/pool-check.test.ts). zod left the
 * parser (it cost the Action half a `node -e 0` to load); this keeps its reading as the spec.
 */
import { z } from 'zod';
import { POOL_FORMAT } from '../../../src/core/retrieval/pool-file.js';
import { legacyIdentity } from '../../../src/core/knowledge/identity.js';
import {
  MEMORY_LEVELS,
  MEMORY_STATUSES,
  MEMORY_WRITERS,
  SOURCE_KINDS,
  VISIBILITIES,
  type Memory,
} from '../../../src/core/types.js';

const text = z.string();
const isoDate = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'must be an ISO 8601 date');
const count = z.number().int().nonnegative();

export const headerSchema = z.object({
  format: z.literal(POOL_FORMAT, { error: `must be "${POOL_FORMAT}" (is this a Memory Transfer export?)` }),
  version: z.number().int().positive(),
  tenant: z.string().min(1),
  exportedAt: isoDate,
  count: count.optional(),
});

const provenanceSchema = z.object({
  tenant: z.string().min(1),
  repo: z.string().min(1),
  repoId: z.number().int().optional(),
  visibility: z.enum(VISIBILITIES),
  sourceKind: z.enum(SOURCE_KINDS),
  ref: z.string(),
  url: z.string().optional(),
  authors: z.array(text),
  date: text,
});

const bodySchema = z.discriminatedUnion('level', [
  z.object({
    level: z.literal('insight'),
    insight: z.object({ title: text, description: text, content: text }),
  }),
  z.object({ level: z.literal('workflow'), workflow: z.object({ goal: text, steps: z.array(text) }) }),
  z.object({
    level: z.literal('summary'),
    summary: z.object({ task_summary: text, experience_summary: text }),
  }),
  z.object({ level: z.literal('trajectory'), trajectory: z.object({ trace: text }) }),
]);

/**
 * Every field of a Memory (src/core/types.ts); unknown fields are dropped. The identity fields are
 * optional: a line without one gets it from its tags, content and model (legacyIdentity).
 */
export const memorySchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a memory id (letters, digits, _ and -)'),
    tenant: z.string().min(1),
    level: z.enum(MEMORY_LEVELS),
    title: text,
    description: text,
    content: text,
    body: bodySchema,
    tags: z.array(text),
    evidence: z.array(text),
    provenance: z.array(provenanceSchema).min(1, 'needs at least one source'),
    visibility: z.enum(VISIBILITIES),
    sharedWiderBy: z.string().optional(),
    status: z.enum(MEMORY_STATUSES),
    votes: z.object({ up: count, down: count }),
    support: z.number().int().positive(),
    uses: count,
    outcomes: z.object({ success: count, failure: count }),
    model: text,
    writer: z.enum(MEMORY_WRITERS).optional(),
    lesson: text.nullable().optional(),
    routines: z.array(z.string().min(1)).optional(),
    facet: z
      .string()
      .regex(/^[^/]+\/./, 'must be "<kind>/<facet>" or null')
      .nullable()
      .optional(),
    examples: z.array(text).optional(),
    createdAt: isoDate,
    updatedAt: isoDate,
    lastUsedAt: isoDate.optional(),
  })
  .refine((memory) => memory.body.level === memory.level, { message: 'must match level', path: ['body', 'level'] })
  .transform((memory) => {
    const derived = legacyIdentity(memory);
    return {
      ...memory,
      writer: memory.writer ?? derived.writer,
      lesson: memory.lesson === undefined ? derived.lesson : memory.lesson,
      routines: memory.routines ?? derived.routines,
      facet: memory.facet === undefined ? derived.facet : memory.facet,
      examples: memory.examples ?? derived.examples,
    };
  });

// the schema and the domain type stay in step: a parsed line is a Memory
type Parsed = z.output<typeof memorySchema>;
const _inStep: (parsed: Parsed) => Memory = (parsed) => parsed;
void _inStep;
