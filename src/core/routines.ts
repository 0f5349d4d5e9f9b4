/**
 * The validation-routine cue detector, shared by learn (a fix → routine kinds with weights) and
 * recall (task text → routine kinds), so a task described in other words than the fix that taught
 * an insight still finds it ("date parsing breaks for users in UTC+13" → encoding-locale).
 * The cues are general software vocabulary, not any repository's words. Pure: no I/O.
 */
import { cueText, cueWeight, fixProse } from './text.js';
import type { CheckKind, Fix } from './types.js';

export const ROUTINE_KINDS = [
  'edge-input',
  'encoding-locale',
  'platform-compat',
  'concurrency-async',
  'performance-resource',
  'error-handling',
  'security-validation',
  'api-compat',
  'dependency-compat',
  'type-check',
  'lint-format',
  'build-packaging',
  'ci-config',
  'config-env',
  'data-migration',
  'regression-test',
] as const;
export type RoutineKind = (typeof ROUTINE_KINDS)[number];

export interface RoutineCue {
  kind: RoutineKind;
  /** strength of the evidence, summed over cues and capped; compare within one detection only */
  weight: number;
  /** the narrower routine within the kind, when the kind has several and the text names one */
  facet?: string;
}

/**
 * Narrower routines within a kind: each asks for a different check (a time-zone test is not a
 * multi-byte text test). The first facet of a kind is its default. Kinds without facets have one
 * routine.
 */
export const FACETS: Partial<Record<RoutineKind, readonly (readonly [string, RegExp])[]>> = {
  'edge-input': [
    [
      'empty',
      /\b(empty|blank|null|nil|none|undefined|nullish|missing|zero|no (arguments?|args|input|names?|values?|items?|elements?))\b/i,
    ],
    [
      'boundary',
      /\b(boundar(y|ies)|off[- ]by[- ]one|out[- ]of[- ](range|bounds)|(over|under)flow|index|max(imum)?|min(imum)?|negative|single|limits?|infinite loop)\b/i,
    ],
    [
      'malformed',
      /\b(malformed|invalid|whitespace|spaces?|trailing|leading|pars(e|er|ing)|special characters?|unexpected (input|characters?))\b/i,
    ],
  ],
  'encoding-locale': [
    [
      'time',
      /\b(time ?zones?|tz|dst|daylight[- ]saving|utc|gmt|offsets?|dates?|midnight|calendar)\b|[+-]\d{2}:?\d{2}\b/i,
    ],
    [
      'text',
      /\b(unicode|utf-?(8|16|32)|charsets?|emoji|non-ascii|ascii|(en|de)cod(e|es|ed|ing|er)|bytes?|line[- ]endings?|crlf|bom)\b/i,
    ],
    ['locale', /\b(locales?|i18n|l10n|translations?|intl)\b/i],
  ],
  'platform-compat': [
    [
      'os',
      /\b(windows|win32|macos|darwin|linux|posix|freebsd|android|ios|path separators?|backslash(es)?|drive letters?|shells?|zsh|bash|fish|powershell|terminals?|tty|file ?systems?|case[- ]insensitive)\b/i,
    ],
    [
      'runtime',
      /\b(node(\.?js)? ?v?\d+|python ?[23](\.\d+)?|runtime versions?|ie ?\d+|internet explorer|safari|browsers?|engines?)\b/i,
    ],
  ],
  'concurrency-async': [
    [
      'race',
      /\b(race( conditions?)?|racy|concurren\w*|parallel\w*|deadlocks?|threads?|mutex\w*|goroutines?|channels?|globals?|shared state|flaky|intermittent\w*|order(ing)?)\b/i,
    ],
    ['cancel', /\b(cancel\w*|abort\w*|time ?outs?|timed out|signals?|shut ?down|hangs?)\b/i],
  ],
  'performance-resource': [
    [
      'leak',
      /\b(leak(s|ed|ing)?|listeners?|clean ?up|cleaned up|dispos(e|al)|clos(e|es|ing)|file descriptors?|handles?|processes|zombies?|unsubscrib\w*|memory)\b/i,
    ],
    ['slow', /\b(slow(ness)?|perf(ormance)?|quadratic|cpu|throttl\w*|cach(e|es|ing)|latency|benchmarks?)\b/i],
  ],
  'error-handling': [
    [
      'surface',
      /\b(swallow\w*|uncaught|unhandled|propagat\w*|shadow\w*|mask(s|ed|ing)?|silent(ly)?|catch|ignored|lost)\b/i,
    ],
    [
      'report',
      /\b(stderr|stdout|exit (codes?|status)|error messages?|messages?|traceback|stack traces?|panics?|crash(es|ed)?|cast)\b/i,
    ],
  ],
  'config-env': [
    [
      'precedence',
      /\b(env(ironment)?( var(iable)?s?)?|precedence|config(uration)?( files?)?|settings?|dotenv|defaults?)\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/,
    ],
    [
      'parsing',
      /\b(flags?|options?|argument parsing|arguments?|parameters?|values?|short options?)\b|(^|\s)--?[a-z][\w-]*/i,
    ],
  ],
};

/** The facet of a kind that a text names most (weighted texts), else the kind's default facet. */
export function detectFacet(kind: RoutineKind, texts: readonly (readonly [string, number])[]): string | undefined {
  const facets = FACETS[kind];
  if (!facets || facets.length === 0) return undefined;
  let best: [string, number] = [facets[0]![0], 0];
  for (const [facet, pattern] of facets) {
    const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    let score = 0;
    for (const [text, factor] of texts) score += Math.min(2, [...text.matchAll(global)].length) * factor;
    if (score > best[1]) best = [facet, score];
  }
  return best[0];
}

/** The facet named in a text, or undefined when the text names none of the kind's facets. */
function facetNamed(kind: RoutineKind, text: string): string | undefined {
  const facets = FACETS[kind];
  if (!facets) return undefined;
  const facet = detectFacet(kind, [[text, 1]]);
  const pattern = facets.find(([f]) => f === facet)?.[1];
  return pattern && pattern.test(text) ? facet : undefined;
}

type Cue = readonly [RegExp, number];

/** Cues in prose (titles, bodies, task descriptions). Case-insensitive unless the regex says otherwise. */
const TEXT_CUES: Record<RoutineKind, readonly Cue[]> = {
  'edge-input': [
    [/\b(empty|blank)\b/i, 1],
    [/\b(null|nil|none|undefined|nan|nullish)\b/i, 1],
    [/\bzero\b|\b0-(length|size)|\bzero-(length|size)/i, 1],
    [/\bboundar(y|ies)\b|\boff[- ]by[- ]one\b|\bout[- ]of[- ](range|bounds)\b/i, 1],
    [/\b(over|under)flow/i, 0.8],
    [/\b(edge|corner)[- ]cases?\b|\bmalformed\b/i, 1],
    [/\bno (arguments?|args|params|parameters|input|name|value|values|items?|elements?)\b/i, 1],
    [/\bmissing ([a-z]+ )?(values?|arguments?|fields?|keys?|names?|input|params|parameters?)\b|\bis missing\b/i, 0.8],
    [/\b(negative|maximum|minimum|max|min) (values?|numbers?|length|size|count)\b/i, 0.8],
    [/\b(whitespace|spaces|a space|trailing|leading)\b/i, 0.6],
    [/\bfirst (one|item|element|entry|call|time|to be)\b|\blast (one|item|element|entry|line)\b/i, 0.5],
    [/\bipv[46]\b|\barbitrary\b/i, 0.5],
    [/\binvalid (dates?|input|values?|numbers?|strings?|times?)\b/i, 0.8],
    [/\b(divide|division) by zero\b|\binfinite loop\b/i, 0.7],
    [/\b(single|one)[- ](char|character|element|item)\b|\blong (input|strings?|lines?)\b/i, 0.7],
    [/\bpanics?\b|\bsegfault|\bcrash(es|ed)?\b/i, 0.4],
    [/\bpars(e|er|ing)\b/i, 0.3],
    [/\b(counts?|amounts?|number of (times|runs|items|retries|attempts|elements|lines|bytes))\b/i, 0.6],
    [/\b(cyclic|circular|recursi(on|ve)|self[- ]referen\w*)\b/i, 0.7],
    [/\b(uninitiali[sz]ed|not (been )?(set|initiali[sz]ed|enabled))\b/i, 0.7],
    [/(>=|<=)\s*-?\d|\bmust be (at least|at most|positive|non-negative|greater|less)\b/i, 0.8],
    [
      /\b(typeerror|valueerror|keyerror|indexerror|attributeerror|rangeerror|zerodivisionerror|nullpointerexception)\b/i,
      1,
    ],
  ],
  'encoding-locale': [
    [/\bunicode\b|\butf-?(8|16|32)\b|\bcharsets?\b|\bemoji\b|\bnon-ascii\b|\bascii\b/i, 1],
    [/\b(en|de)cod(e|es|ed|ing|er)\b/i, 1],
    [/\bline[- ]endings?\b|\bcrlf\b|\bbom\b/i, 1],
    [/\btime ?zones?\b|\btz\b|\bdst\b|\bdaylight[- ]saving/i, 1.2],
    [/\butc\b|\bgmt\b|(^|\s)[+-]\d{2}:\d{2}\b|\b(utc|gmt)[+-]\d{1,2}/i, 1],
    [/\blocales?\b|\bi18n\b|\bl10n\b|\btranslations?\b|\bintl\b/i, 1],
    [/\bbytes?\b/i, 0.4],
    [/\bdates?\b|\btimes?\b/i, 0.3],
  ],
  'platform-compat': [
    [/\bwindows\b|\bwin32\b|\bmacos\b|\bdarwin\b|\bos ?x\b|\blinux\b|\bposix\b|\bfreebsd\b|\bandroid\b|\bios\b/i, 1.2],
    [/\bpath separators?\b|\bbackslash(es)?\b|\bdrive letters?\b/i, 1.2],
    [/\bnode(\.?js)? ?v?\d+|\bpython ?[23](\.\d+)?\b|\bruntime versions?\b/i, 1],
    [/\bie ?\d+\b|\binternet explorer\b|\bsafari\b|\bbrowsers?\b/i, 1],
    [/\b(zsh|bash|fish|powershell|cmd\.exe)\b/i, 1],
    [/\bplatforms?\b|\bcross-platform\b|\bportab/i, 1],
    [
      /\b(32|64)[- ]?bits?\b|\b(x86(_64)?|i[3-6]86|arm64|aarch64|riscv\d*|s390x?)\b|\barch(itectures?|s)?\b|\bendian\w*/i,
      1.2,
    ],
    [/\b(pypy|jython|graalpy|cpython|deno|bun|wasm|webassembly|musl|glibc)\b/i, 1],
    [/\bshells?\b|\bterminals?\b|\btty\b|\bfile ?systems?\b|\bcase[- ]insensitive\b/i, 0.5],
  ],
  'concurrency-async': [
    [/\brace( conditions?)?\b|\bracy\b|\bconcurren|\bparallel|\bdeadlock|\bthread-?safe/i, 1.2],
    [/\bthreads?\b|\bmutex|\bgoroutines?\b|\bchannels?\b/i, 0.8],
    [/\basync\b|\basynchronous|\bawait/i, 0.7],
    [/\bpromises?\b|\bcallbacks? order|\bevent order|\bordering\b/i, 0.6],
    [/\btime ?outs?\b|\btimed out\b/i, 0.9],
    [/\bcancel|\babort/i, 1],
    [/\bsignals?\b|\breceivers?\b|\bsenders?\b|\bshut ?down\b/i, 0.4],
    [/\bglobals?\b|\bshared state\b|\bflaky\b|\bintermittent/i, 0.6],
  ],
  'performance-resource': [
    [/\bleak(s|ed|ing)?\b/i, 1.2],
    [/\b(over[- ]?)?allocat(e|es|ed|es|ing|ion|ions)\b/i, 0.6],
    [/\bmemory\b/i, 0.6],
    [/\bclean ?up\b|\bcleaned up\b|\bcleanup\b|\bdispos(e|al)\b|\bfinaliz/i, 1],
    [/\blisteners?\b|\bunsubscrib/i, 0.7],
    [/\bclos(e|es|ing) (of )?(the )?(handles?|files?|connections?|sockets?|streams?|callbacks?|resources?)\b/i, 1],
    [/\bfile descriptors?\b|\btoo many (open|processes|connections|files)\b|\bexhaust/i, 1],
    [/\bslow(ness)?\b|\bperf(ormance)?\b|\bquadratic\b|\bcpu\b|\bthrottl/i, 1],
    [
      /\b(not|never|does ?n[o']t|fails? to) (terminat|exit)\w*|\bkeeps? (the )?(process|event loop) (alive|running)\b/i,
      1,
    ],
    [/\bprocesses\b|\bresources?\b|\bzombie|\borphan/i, 0.5],
    [/\bcach(e|es|ing)\b|\bsockets?\b/i, 0.3],
  ],
  'error-handling': [
    [/\berrors?\b/i, 0.6],
    [/\bexceptions?\b/i, 0.8],
    [/\bthrows?\b|\bthrown\b|\bthrowing\b/i, 0.6],
    [/\bswallow|\buncaught\b|\bunhandled\b|\bpropagat/i, 1.2],
    [/\b(re)?rais(e|es|ed|ing)\b|\btry\/catch\b|\bcatch\b/i, 0.5],
    [/\bpanics?\b|\bcrash(es|ed)?\b/i, 0.5],
    [/\bstderr\b|\bexit (codes?|status)\b|\berror messages?\b/i, 0.9],
    [/\bshadow|\bmask(s|ed|ing)?\b|\bfail(s|ed)? silently\b|\bsilently\b/i, 0.7],
    [/\btraceback\b|\bstack traces?\b|\bnot respond|\bhangs?\b/i, 0.5],
  ],
  'security-validation': [
    [/\bsecurity\b|\bvulnerab|\bcve-\d/i, 1.2],
    [/\binjection\b|\bsaniti[sz]|\bescape sequences?\b/i, 1.2],
    // "inject a script" is often plain wiring (dependency injection, a bundler injecting code)
    [/\binject(ed|s)?\b/i, 0.4],
    [/\bxss\b|\bcsrf\b|\bssrf\b|\bspoof|\bpath traversal\b|\bprototype pollution\b|\bredos\b/i, 1.2],
    [/\btrust(ed)?[- ]?prox|\buntrusted\b|\btrust\b/i, 0.8],
    [
      /\b(3rd|third)[- ]part(y|ies)\b|\bcross[- ](origin|domain|site)\b|\b(secure|sensitive) (headers?|cookies?|data)\b/i,
      0.8,
    ],
    [/\bshell ?(=|command|injection)|\bshell=true\b|\bquot(e|ing) (of )?(arguments?|commands?)/i, 1],
    [/\bauth(entication|orization)?\b|\bpermissions?\b|\bsecrets?\b|\bcredentials?\b/i, 0.5],
  ],
  'api-compat': [
    [/\bbreaking( changes?)?\b|\bbackwards?[- ]compat|\bbackwards?[- ]incompatib/i, 1.2],
    [/\bregress(ion|ions|ed)\b/i, 0.8],
    [/\bcontract\b|\bpublic api\b|\bsemver\b/i, 1],
    [/\bintroduced (in|by)\b|\bprevious(ly)? (behaviou?r|versions?)|\brestor(e|es|ed)\b|\brevert/i, 0.6],
    [/\bbehaviou?r\b|\bapi\b/i, 0.4],
  ],
  'dependency-compat': [
    [/\bdependenc(y|ies)\b|\bdeps\b|\bupgrad|\bpeer\b|\block ?files?\b/i, 1],
    [/\bdeprecat(ed|ions?)\b/i, 0.6],
    [
      /\b(broken|breaks?|broke|failing|fails?) (by|with|after|since) .{0,40}\b(updates?|upgrades?|releases?|versions?)\b/i,
      1,
    ],
    [/\bv\d+(\.\d+)*\+?\b|\b[a-z][\w.-]* \d+\.\d+\b/i, 0.5],
    [/\btoolchain\b|\bnew (version|release)s?\b|\bcompatib(le|ility)\b|\bnightly\b|\bmsrv\b/i, 0.5],
  ],
  'type-check': [
    [/\btypes?\b|\btyping(s)?\b/i, 0.7],
    [/\btypescript\b|\bmypy\b|\bpyright\b|\btsc\b|\bd\.ts\b/i, 0.8],
    [/\btype (signatures?|definitions?|declarations?|annotations?|errors?|checks?|checking|hints?)\b/i, 1.2],
    [/\bgenerics?\b|\bnullable\b|\breturn (value|type)s?\b|\bcasts?\b/i, 0.4],
  ],
  'lint-format': [
    [
      /\blint(s|er|ers|ing)?\b|\beslint\b|\bclippy\b|\bvet\b|\bgolint\b|\bstaticcheck\b|\bflake8\b|\bruff\b|\bpylint\b/i,
      1.2,
    ],
    [/\bprettier\b|\bgofmt\w*|\brustfmt\b|\bcode (formatter|formatting|style)\b|\bfmt\b/i, 1],
    [
      /\bwarnings?\b|\bunused\b|\bdeclared (and|but) not used\b|\bstyle (checks?|guide|issues?|errors?|violations?)\b/i,
      0.6,
    ],
  ],
  'build-packaging': [
    [/\bbuild(s|ing)?\b/i, 0.8],
    [
      /\bcompil(e|es|er|ation)\b|\btranspil|\bbundl(e|er|ing)\b|\bminif|\buglify|\bwebpack\b|\brollup\b|\besbuild\b/i,
      1,
    ],
    [/\bpackag(e|ing)\b|\bpublish|\bdist\b|\bartifacts?\b|\bmakefile\b|\bcmake\b|\btsconfig\b/i, 0.5],
    [/\balready declared\b|\bredeclared\b|\bundefined reference\b|\blinker\b|\bes5\b|\bcommonjs\b|\besm\b/i, 1],
    [/\bscripts?\b|\bgenerat(e|ion)\b/i, 0.3],
  ],
  'ci-config': [
    [/\bci\b|\bcontinuous integration\b|\bgithub[- ]actions?\b|\btravis\b|\bcircleci\b|\bappveyor\b|\bjenkins\b/i, 1.2],
    [/\bworkflows?\b|\bpipelines?\b|\bcoverage\b|\bmatrix\b/i, 0.6],
  ],
  'config-env': [
    [/\bconfig(uration|s)?\b|\bsettings?\b|\bprecedence\b/i, 1],
    [/\boptions?\b|\bflags?\b/i, 0.8],
    [/\benv( var(iable)?s?)?\b|\benvironment var(iable)?s?\b|\bdotenv\b/i, 1],
    // a runtime or test "environment" is as often meant as a configured one
    [/\benvironments?\b/i, 0.5],
    [/\bdefaults?\b/i, 0.8],
    // "respect the option", "honor the setting": a configured value was ignored
    [/\b(respect|honou?r)(s|ed|ing)?\b/i, 0.5],
    [/(^|\s)--?[a-z][\w-]*/i, 0.6],
    [/\bargument parsing\b|\bparameters?\b|\bcli\b/i, 0.4],
  ],
  'data-migration': [[/\bmigrat(e|ion|ions)\b|\bschema\b|\bdatabase\b|\bsql\b/i, 1.2]],
  'regression-test': [[/\btests?\b|\bregression tests?\b/i, 0.2]],
};

/** Case-sensitive cues (an ENVIRONMENT_VARIABLE-looking word). */
const CASED_CUES: readonly [RegExp, RoutineKind, number][] = [[/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/, 'config-env', 0.8]];

/** Cues in the kinds of files a fix touched. */
const FILE_CUES: readonly [RegExp, RoutineKind, number][] = [
  [
    /(^|\/)\.github\/workflows\/|(^|\/)\.travis\.yml$|(^|\/)\.circleci\/|appveyor\.yml$|azure-pipelines|\.gitlab-ci\.yml$|Jenkinsfile$/i,
    'ci-config',
    1.5,
  ],
  [
    /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|go\.sum|poetry\.lock|Pipfile\.lock|Gemfile\.lock|composer\.lock)$/i,
    'dependency-compat',
    0.8,
  ],
  [
    /(^|\/)(package\.json|Cargo\.toml|go\.mod|requirements[\w-]*\.txt|pyproject\.toml|Gemfile|composer\.json)$/i,
    'dependency-compat',
    0.4,
  ],
  [
    /(^|\/)(Makefile|CMakeLists\.txt|webpack\.config\.\w+|rollup\.config\.\w+|vite\.config\.\w+|tsconfig[\w.-]*\.json|build\.rs|Dockerfile|setup\.py|setup\.cfg|MANIFEST\.in|\.npmignore)$|(^|\/)scripts\/build/i,
    'build-packaging',
    0.7,
  ],
  [/\.d\.ts$|\.test-d\.ts$|\.pyi$|(^|\/)py\.typed$|(^|\/)types?\//i, 'type-check', 1],
  [/(^|\/)(locales?|i18n|l10n|tz|timezones?)(\/|$)|timezone/i, 'encoding-locale', 0.8],
  [/(^|\/)(migrations?|migrate)\/|\.sql$|(^|\/)schema\./i, 'data-migration', 1.2],
  [
    /(^|\/)(\.eslintrc[\w.]*|eslint\.config\.\w+|\.golangci\.ya?ml|clippy\.toml|\.flake8|ruff\.toml|\.prettierrc[\w.]*|\.rubocop\.yml)$/i,
    'lint-format',
    1,
  ],
  [/_(windows|win32|darwin|unix|linux)\.\w+$|(^|\/)(win32|windows|platform)[/._-]/i, 'platform-compat', 0.8],
  [/(worker|thread|mutex|lock|queue|sched|async)[\w-]*\.\w+$/i, 'concurrency-async', 0.3],
  [/(config|settings|options|flags?|env|args?)[\w-]*\.\w+$|(^|\/)cli\.\w+$/i, 'config-env', 0.3],
  [/(saniti[sz]|escape|auth|security|trust)[\w-]*\.\w+$/i, 'security-validation', 0.4],
];

const CHECK_ROUTINE: Record<CheckKind, { kind: RoutineKind; weight: number }> = {
  lint: { kind: 'lint-format', weight: 1.5 },
  types: { kind: 'type-check', weight: 1.5 },
  build: { kind: 'build-packaging', weight: 1.5 },
  unit: { kind: 'regression-test', weight: 0.5 },
  e2e: { kind: 'regression-test', weight: 0.5 },
  other: { kind: 'regression-test', weight: 0.3 },
};

/** The routine a kind of check gone red then green points to (none for plain test runs). */
export function checkRoutine(check: CheckKind | undefined): RoutineKind | undefined {
  if (!check) return undefined;
  const routine = CHECK_ROUTINE[check];
  return routine.kind === 'regression-test' ? undefined : routine.kind;
}

/** Caps one source of evidence so that a long text cannot outweigh a precise cue. */
const CAP_PER_KIND = 2;

function add(weights: Map<RoutineKind, number>, kind: RoutineKind, weight: number): void {
  weights.set(kind, (weights.get(kind) ?? 0) + weight);
}

/** Routine weights found in one piece of prose, each kind capped. */
function scoreText(raw: string): Map<RoutineKind, number> {
  const found = new Map<RoutineKind, number>();
  if (raw.trim() === '') return found;
  const text = cueText(raw);
  const lower = text.toLowerCase();
  for (const kind of ROUTINE_KINDS) {
    const sum = cueWeight(TEXT_CUES[kind], text, lower);
    if (sum > 0) found.set(kind, Math.min(sum, CAP_PER_KIND));
  }
  for (const [pattern, kind, weight] of CASED_CUES) if (pattern.test(text)) add(found, kind, weight);
  return found;
}

function sorted(weights: Map<RoutineKind, number>, minWeight = 0): RoutineCue[] {
  return [...weights.entries()]
    .filter(([, w]) => w > minWeight)
    .map(([kind, weight]) => ({ kind, weight: Math.round(weight * 100) / 100 }))
    .sort((a, b) => b.weight - a.weight || ROUTINE_KINDS.indexOf(a.kind) - ROUTINE_KINDS.indexOf(b.kind));
}

/** Routine kinds a task description points to, strongest first (regression-test never: it says nothing). */
export function detectRoutinesInText(text: string): RoutineCue[] {
  const weights = scoreText(text);
  weights.delete('regression-test');
  return sorted(weights, 0.25).map((cue) => {
    const facet = facetNamed(cue.kind, text);
    return facet ? { ...cue, facet } : cue;
  });
}

/** The kinds of files a fix touched, as routine cues. */
export function detectRoutinesInFiles(files: readonly string[]): Map<RoutineKind, number> {
  const found = new Map<RoutineKind, number>();
  for (const [pattern, kind, weight] of FILE_CUES) {
    if (files.some((f) => pattern.test(f))) add(found, kind, weight);
  }
  return found;
}

/** Only the fields cue detection reads, so callers can pass a partial fix. */
export type FixForCues = Pick<Fix, 'title' | 'problem' | 'change' | 'files' | 'testsChanged' | 'signals'>;

/**
 * Routine kinds a fix teaches, strongest first. The title counts most, the problem text half,
 * the change summary and the words of file paths less, plus the kinds of files touched and the
 * kinds of checks that went red then green. regression-test comes last as the fallback when the
 * fix changed tests.
 */
export function detectRoutinesInFix(fix: FixForCues): RoutineCue[] {
  const weights = new Map<RoutineKind, number>();
  const sources: [string, number][] = [
    [fix.title, 1],
    [fixProse(fix.problem), 0.5],
    [fix.change, 0.3],
    [fix.files.map((f) => f.replace(/[/._-]+/g, ' ')).join('\n'), 0.25],
  ];
  for (const [text, factor] of sources) {
    for (const [kind, w] of scoreText(text)) add(weights, kind, w * factor);
  }
  for (const [kind, w] of detectRoutinesInFiles(fix.files)) add(weights, kind, w);
  for (const signal of fix.signals) {
    if (signal.kind === 'check-red-green' && signal.check) {
      const routine = CHECK_ROUTINE[signal.check];
      add(weights, routine.kind, routine.weight);
    }
  }
  weights.delete('regression-test');
  const cues = sorted(weights, 0.3).map((cue) => {
    const facet = detectFacet(cue.kind, sources);
    return facet ? { ...cue, facet } : cue;
  });
  if (fix.testsChanged || fix.signals.some((s) => s.kind !== 'check-red-green')) {
    cues.push({ kind: 'regression-test', weight: 0.3 });
  }
  return cues;
}

/**
 * Words that describe each routine, used to expand a recall query so a task phrased in other
 * words still meets the insights of that routine.
 */
export const ROUTINE_VOCABULARY: Record<RoutineKind, string> = {
  'edge-input': 'empty null zero boundary edge case malformed missing input',
  'encoding-locale': 'encoding unicode utf-8 time zone dst locale date',
  'platform-compat': 'platform operating system windows paths runtime version shell',
  'concurrency-async': 'race concurrency async ordering timeout cancellation',
  'performance-resource': 'leak cleanup listeners resources performance memory',
  'error-handling': 'error handling exception swallowed uncaught reported',
  'security-validation': 'security untrusted input injection sanitize spoofing',
  'api-compat': 'backward compatibility breaking change public behaviour contract',
  'dependency-compat': 'dependency version upgrade compatibility lockfile',
  'type-check': 'type checker type declarations signatures',
  'lint-format': 'linter formatter warnings static analysis',
  'build-packaging': 'build compile bundle package artifacts',
  'ci-config': 'ci workflow pipeline configuration',
  'config-env': 'configuration options flags environment variables defaults',
  'data-migration': 'migration schema database',
  'regression-test': 'regression test',
};

/** The routine tag of a kind, as stored on insights. */
export function routineTag(kind: RoutineKind): string {
  return `routine:${kind}`;
}

/** The facet tag of a routine kind's narrower routine, as stored on insights. */
export function facetTag(kind: RoutineKind, facet: string): string {
  return `facet:${kind}/${facet}`;
}

/** The facet a memory's tags give for a kind, if any. */
export function facetOfTags(tags: readonly string[], kind: RoutineKind): string | undefined {
  const prefix = `facet:${kind}/`;
  return tags.find((t) => t.startsWith(prefix))?.slice(prefix.length);
}

/** Routine kinds named by a memory's tags, in tag order (the first is the insight's main routine). */
export function routinesOfTags(tags: readonly string[]): RoutineKind[] {
  const kinds: RoutineKind[] = [];
  for (const tag of tags) {
    if (!tag.startsWith('routine:')) continue;
    const kind = tag.slice('routine:'.length) as RoutineKind;
    if ((ROUTINE_KINDS as readonly string[]).includes(kind) && !kinds.includes(kind)) kinds.push(kind);
  }
  return kinds;
}
