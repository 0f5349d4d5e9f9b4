/**
 * Lessons learned from the organization: when a fix the catalog does not name shares a technical
 * phrase with the fixes of another repository of the same tenant (their trajectories: the title
 * and problem each fix was learned with), its insight becomes the lesson of that phrase, with the
 * other repositories' fixes among its sources. The catalog is the seed, not the ceiling.
 */
import { traceAbout } from '../abstraction/rules-abstractor.js';
import { templateFor } from '../abstraction/routine-templates.js';
import { generalVocabulary } from '../abstraction/vocabulary.js';
import { generalizeSubject } from '../core/generalize.js';
import { cleanExamples, withExamples } from '../core/insight-text.js';
import { mainRoutine } from '../core/knowledge/identity.js';
import {
  learnedLesson,
  learnedLessonId,
  namesPhrase,
  phrasesOf,
  type LearnedLesson,
} from '../core/knowledge/learned-lessons.js';
import { lessonProblems } from '../core/knowledge/schema.js';
import { lessonTag, rankLessons } from '../core/knowledge/lessons.js';
import { fixProse } from '../core/text.js';
import type { Fix, Provenance } from '../core/types.js';
import { MEMORY_STATUSES } from '../core/types.js';
import type { AbstractedMemory } from '../ports/index.js';
import type { Store } from '../store/store.js';

/** Candidate phrases looked up per fix (each one search of the tenant's trajectories). */
const CANDIDATES = 8;
/** Trajectories fetched per phrase. */
const SEARCHED = 30;
/** A phrase named by more fixes than this is the organization's everyday vocabulary, not a lesson. */
const MAX_FIXES = 12;

export interface LearnedInsight {
  memory: AbstractedMemory;
  /** the other repositories' fixes that named the phrase first */
  sources: Provenance[];
}

/**
 * The insight of a fix as the lesson of a phrase it shares with another repository's fixes, or
 * undefined when its insight is a catalog lesson, or no phrase of it recurs.
 */
export async function asLearnedLesson(
  store: Pick<Store, 'searchLexical' | 'getMemories'>,
  fix: Fix,
  insight: AbstractedMemory,
): Promise<LearnedInsight | undefined> {
  if (insight.level !== 'insight' || insight.lesson !== null) return undefined;
  const kind = mainRoutine(insight) ?? 'regression-test';
  // a learned lesson is a lesson entry: one the catalog's schema refuses is never made
  const lessonOf = (phrase: string) => learnedLesson(phrase, kind, templateFor(kind).check);
  const vocabulary = generalVocabulary();
  const [owner = '', name = ''] = fix.repo.split('/');
  const condition = generalizeSubject(fix.title, vocabulary, [owner, name, fix.repo]).text;
  const candidates = phrasesOf(`${condition}\n${fixProse(fix.problem).slice(0, 600)}`, (w) => vocabulary.has(w))
    .filter((p) => !p.split(' ').some((w) => owner.toLowerCase() === w || name.toLowerCase() === w))
    .filter((p) => lessonProblems(lessonOf(p)).length === 0)
    // a phrase the catalog has a lesson for ("empty string", "idle timeout") is that lesson's: a
    // second lesson of it would teach one lesson twice
    .filter((p) => rankLessons(p).length === 0)
    .slice(0, CANDIDATES);
  let best: { phrase: string; repos: number; fixes: number; sources: Provenance[] } | undefined;
  for (const phrase of candidates) {
    // a phrase that is a lesson already: the fix joins it, however often the phrase recurs
    if (await hasLearnedLesson(store, fix.tenant, phrase)) return learnedInsight(insight, lessonOf(phrase), []);
    const ids = await store.searchLexical(fix.tenant, phrase, {
      level: ['trajectory'],
      status: [...MEMORY_STATUSES],
      limit: SEARCHED,
    });
    if (ids.length === 0) continue;
    const naming = (
      await store.getMemories(
        fix.tenant,
        ids.map((h) => h.id),
      )
    ).filter((m) => m.level === 'trajectory' && namesPhrase(traceAbout(m.content), phrase));
    const sources = naming
      .map((m) => m.provenance[0])
      .filter((p): p is Provenance => p !== undefined && p.repo.toLowerCase() !== fix.repo.toLowerCase());
    const repos = new Set(sources.map((p) => p.repo.toLowerCase())).size;
    if (repos === 0 || naming.length > MAX_FIXES) continue;
    if (!best || repos > best.repos || (repos === best.repos && naming.length < best.fixes))
      best = { phrase, repos, fixes: naming.length, sources };
  }
  return best ? learnedInsight(insight, lessonOf(best.phrase), best.sources) : undefined;
}

async function hasLearnedLesson(
  store: Pick<Store, 'searchLexical' | 'getMemories'>,
  tenant: string,
  phrase: string,
): Promise<boolean> {
  const ids = await store.searchLexical(tenant, phrase, {
    level: ['insight'],
    status: [...MEMORY_STATUSES],
    limit: 10,
  });
  if (ids.length === 0) return false;
  const id = learnedLessonId(phrase);
  return (
    await store.getMemories(
      tenant,
      ids.map((h) => h.id),
    )
  ).some((m) => m.lesson === id);
}

function learnedInsight(insight: AbstractedMemory, lesson: LearnedLesson, sources: Provenance[]): LearnedInsight {
  const examples = cleanExamples(insight.examples);
  const content = withExamples(lesson.check, examples);
  return {
    memory: {
      ...insight,
      title: lesson.title,
      description: lesson.description,
      content,
      body: { level: 'insight', insight: { title: lesson.title, description: lesson.description, content } },
      // the tag says it for people, after the fix's own tags
      tags: [...insight.tags, lessonTag(lesson.id)],
      lesson: lesson.id,
      examples,
    },
    sources,
  };
}
