/**
 * Does a task describe a failure? Insights are validation routines: they help a task that fixes
 * something that broke, and they are noise on documentation, releases, version bumps and feature
 * requests. Recall (and so comments and the Action) stays silent on those, whatever single common
 * word ("add", "version", "fix" in "fix typo") they share with an insight. Pure: no I/O.
 *
 * The words are general English and software vocabulary, not any repository's.
 */

/** Words that say something went wrong (each alone is enough). */
const FAILURE =
  /\b(\w+(?<=[a-z])(error|exception)|bugs?|bugfix(es)?|crash(es|ed|ing)?|errors?|erroneous(ly)?|exceptions?|fail(s|ed|ing|ures?)?|broken|breaks?|breakage|regress(ion|ions|ed)?|wrong(ly)?|incorrect(ly)?|invalid|panic(s|ked|king)?|segfault|leak(s|ed|ing|age)?|hang(s|ing)?|hung|freez(e|es|ing)|stuck|deadlock(s|ed)?|races?|racy|race conditions?|time ?outs?|timed out|overflow(s|ed)?|underflow|corrupt(s|ed|ion)?|mismatch(es|ed)?|unexpected(ly)?|unhandled|uncaught|swallow(s|ed|ing)?|flaky|intermittent(ly)?|vulnerab(le|ility|ilities)|cve-\d+|inject(ion|ed)|spoof(ed|ing)?|traversal|infinite|off[- ]by[- ]one|nan|misbehav\w*|workaround|problem(s|atic)?|glitch(es)?|not (work(ing)?|respect(ed|ing)?|honou?r(ed|ing)?|handled|called|closed|cleaned|found|set|saved|applied|shown|returned|respond(ing)?|throw(n|ing)?|triggered|emitted)|n['’]t (work|respect|handle|close|return|match|exist)|rather than|does not|doesn['’]t|did not|didn['’]t|cannot|can['’]t|could not|couldn['’]t|unable to|no longer|instead of|never|ignor(es|ed|ing)|lost|drops?|dropped|missing|slow(ly|ness|er|s)?|shift(s|ed|ing)? by|off by|runs? out of|out of (memory|space|disk)|warnings?|deprecat(ed|ion|ions)|fix(es|ed|ing)?|hotfix|patch(es|ed)?|resolve[sd]?|repair(s|ed)?|correct(s|ed|ion)?|avoid(s|ed|ing)?|prevent(s|ed|ing)?|guard(s|ed)? against|handle[sd]?|handling)\b/;

/** Repair verbs ("fix", "patch"): a failure only when what they repair is not documentation. */
const REPAIR_ONLY =
  /^(fix(es|ed|ing)?|hotfix|patch(es|ed)?|resolve[sd]?|repair(s|ed)?|correct(s|ed|ion)?|handle[sd]?|handling|avoid(s|ed|ing)?|prevent(s|ed|ing)?|problems?)$/;

/** What documentation, releases, housekeeping and feature work say about themselves. */
const OFF_TOPIC =
  /(^|\s)(docs?|documentation|readme|changelog|chore\(release\)|release|meta)(\([^)]*\))?:|\bdocs?\b(?!\s+(generation|generator|build|builds|builder|scripts?|tooling))|(?<!(hard|symbolic) )\blinks?\b|\b(typos?|typograph\w*|spelling|misspell\w*|grammar|wording|phrasing|sentences?|descriptions?|examples?|quick ?start|guides?|faq|homepage|(release |upgrad\w* |migration )?notes|build status|status badge|readme|changelog|change ?log|documentation|docstrings?|comments? only|code of conduct|contributing( guide)?|license|copyright|authors( list)?|contributors|maintainers|sponsors?|funding|badges?|logo|screenshots?|tutorial|examples? in (the )?docs|website|blog( post)?|translate|translation of the (readme|docs))\b|^\s*(v(ersion)?\s*)?\d+\.\d+(\.\d+)?([-.][\w.]+)?\s*$|^\s*(start|begin|bump|set|update|prepare|release|tag)\w*\s+(to\s+)?(version|v)\s*\d|\b(release|releasing|prepare release|bump(ed|s)? (the )?version|version bump|bump to v?\d|publish(ed)? v?\d|tag(ged)? v?\d)\b/;

/** Failure words that name a failure of code, not of prose. */
const STRONG_FAILURE =
  /^(crash\w*|panic\w*|segfault|leak\w*|hang\w*|hung|deadlock\w*|races?|racy|race conditions?|regress\w*|overflow\w*|underflow|corrupt\w*|vulnerab\w*|cve-\d+|inject\w*|spoof\w*|traversal|infinite|off[- ]by[- ]one|time ?outs?|timed out|freez\w*|stuck|flaky|unhandled|uncaught|swallow\w*)$/;

export interface TaskFocus {
  /** words of failure the task uses, beyond a repair verb ("crash", "leak", "does not") */
  failureWords: string[];
  /** the task says it repairs something ("fix", "patch", "prevent") */
  repair: boolean;
  /** the task is about documentation, a release or housekeeping */
  offTopic: boolean;
  /** insights can help: a failure (or a repair) that is not documentation or a release */
  describesFailure: boolean;
}

const FAILURE_GLOBAL = new RegExp(FAILURE.source, 'g');

export function taskFocus(task: string): TaskFocus {
  // the patterns are written in lower case and read the lowercased task (no `i` flag: compiling one
  // costs ICU's case folding, a good part of a short run's start)
  const text = task.toLowerCase();
  const words = [...text.matchAll(FAILURE_GLOBAL)].map((m) => m[0]);
  const failureWords = [...new Set(words.filter((w) => !REPAIR_ONLY.test(w)))];
  const repair = words.some((w) => REPAIR_ONLY.test(w));
  const offTopic = OFF_TOPIC.test(text);
  // documentation that mentions a failure ("error handling docs", "typographic error") needs no routine:
  // only the words of a failure of code ("crash", "leak", "race") outweigh it, and never in a typo fix
  const strongFailure = failureWords.some((w) => STRONG_FAILURE.test(w));
  const describesFailure = offTopic
    ? strongFailure && !/(^|\s)(docs?|documentation|readme|changelog)(\([^)]*\))?:|\btypo/.test(text)
    : failureWords.length > 0 || repair;
  return { failureWords, repair, offTopic, describesFailure };
}

/** Words every failure report uses: they say that something broke, not what. */
const GENERIC_FAILURE =
  /\b(bug ?fix(es)?|fix(es|ed|ing)?|bugs?|crash(es|ed|ing)?|errors?|fail(s|ed|ing|ures?)?|broken|breaks?|wrong(ly)?|incorrect(ly)?|issues?|problems?|panic(s|ked|king)?|unexpected(ly)?|does not|doesn['’]t|not working)\b/gi;

/** The task without the generic words of failure: what a search must match to be evidence. */
export function specificText(task: string): string {
  return task.replace(GENERIC_FAILURE, ' ').replace(/\s+/g, ' ').trim();
}
