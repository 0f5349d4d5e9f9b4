/**
 * What makes a title one a reader can act on cleanly. The knowledge schema holds every written
 * title to it, and the eval counts the learned titles that miss it.
 */

/** A commit's opening verb ("Fix …", "Add …", "Don't …"): a title says what to check, not what was done. */
const REPAIR_VERB =
  /^(fix(es|ed)?|hotfix|update[sd]?|add(s|ed)?|chop(s|ped)?|remove[sd]?|revert(s|ed)?|bump(s|ed)?|patch(es|ed)?|correct(s|ed)?|change[sd]?|make[s]?|use[sd]?|move[sd]?|refactor(s|ed)?|handle[sd]?|resolve[sd]?|allow(s|ed)?|improve[sd]?|ensure[sd]?|don['’]?t|do not|prevent(s|ed)?|avoid(s|ed)?)\b/i;
const DANGLING = /\b(a|an|the|of|for|to|with|and|or|in|on|by|from|at|as|possible|when|if|that|is|are|its|their)\s*$/i;
/** "<the commit's words>: <a check>" — a colon joining a phrase to an instruction. */
const GLUED = /^[^:]{3,}:\s+(test|pin|check|run|add|assert|verify|build|use|keep)\b/i;

/** What no title may do, written or learned: open on a repair verb or end on a dangling word. */
export function writtenTitleDefect(title: string): string | undefined {
  if (REPAIR_VERB.test(title.trim())) return 'begins with a repair verb';
  if (DANGLING.test(title.trim().replace(/[.!]+$/, ''))) return 'ends on a dangling word';
  return undefined;
}

/**
 * A learned title no reader can act on cleanly: a repair verb first, a dangling last word, or a
 * commit's words glued to a check (a written title may join a condition to its check with a colon).
 */
export function titleDefect(title: string): string | undefined {
  return writtenTitleDefect(title) ?? (GLUED.test(title) ? 'commit words glued to a check' : undefined);
}
