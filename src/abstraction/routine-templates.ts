/**
 * Fixed, hand-written validation-routine templates, one per routine kind and facet, read from each
 * kind's entry (src/knowledge/kinds/). The rule-based abstractor builds every insight from these
 * plus generic qualifiers, so an insight can never quote a path, symbol or string of the fix it
 * came from.
 */
import type { RoutineKind } from '../core/knowledge/routines.js';
import type { Template } from '../core/knowledge/entry.js';
import { KIND_ENTRIES as ENTRIES } from '../core/knowledge/kinds/index.js';

export type RoutineTemplate = Template;

/** The template of each kind; for a kind with facets (src/core/knowledge/routines.ts), of its first facet. */
export const ROUTINE_TEMPLATES = Object.fromEntries(ENTRIES.map((entry) => [entry.kind, entry.template])) as Record<
  RoutineKind,
  RoutineTemplate
>;

/** The templates of the other facets, keyed `kind/facet`. */
export const FACET_TEMPLATES: Record<string, RoutineTemplate> = Object.fromEntries(
  ENTRIES.flatMap(({ kind, facets = [] }) =>
    facets.flatMap((facet) => (facet.template ? [[`${kind}/${facet.name}`, facet.template]] : [])),
  ),
);

/** The template of a routine kind, narrowed to a facet when that facet has its own. */
export function templateFor(kind: RoutineKind, facet?: string): RoutineTemplate {
  return (facet === undefined ? undefined : FACET_TEMPLATES[`${kind}/${facet}`]) ?? ROUTINE_TEMPLATES[kind];
}
