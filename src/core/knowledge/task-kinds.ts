/**
 * The cues that tell what kind of task a text is (core/retrieval/task-kind.ts weighs them). General English
 * and software vocabulary, written from how people phrase issues anywhere, never from a
 * repository's words. Patterns read the lower-cased text unless `on: 'raw'` (exception names and
 * error lines keep their case); `on: 'title'` reads the first line only.
 */
import { MOJIBAKE } from './kinds/encoding-locale.js';
import { ATTACK_PAYLOAD, AUTH_BYPASS } from './kinds/security-validation.js';
import { MEMORY_MEASURED } from './kinds/performance-resource.js';
import { PLATFORM_DIFFERENCE } from './kinds/platform-compat.js';

export interface KindCue {
  pattern: RegExp;
  weight: number;
  /** 'title': the first line; 'issueTitle': the first line of a task with a body (an issue, not a commit subject); 'raw': the text as written */
  on?: 'title' | 'issueTitle' | 'raw';
}

const cue = (pattern: RegExp, weight: number, on?: KindCue['on']): KindCue => ({ pattern, weight, ...(on && { on }) });

/** A one-line task that says it repairs something (a commit subject, a PR title). */
export const REPAIR_SUBJECT =
  /\b(fix(es|ed|ing)?|bug ?fix(es)?|hotfix|bugs?|regression|patch(es|ed)?|resolve[sd]?|repair(s|ed)?|correct(s|ed)?|prevent(s|ed)?|avoid(s|ed)?|handle[sd]?|guard against|crash(es|ed)?|leak(s|ed)?|race)\b/;

/**
 * A sentence of the body that asks or wishes for something ("… would make it easier to debug flaky
 * upstreams", "could offer a strict mode so that a misspelled key throws", "can the file end up
 * truncated?"): what it names is wanted, feared or asked about, not seen, so its words of failure
 * are no symptom. Past and negated modals ("could not connect", "wouldn't exit") are observations;
 * so is an expectation ("I'd expect `ENOENT`").
 */
export const WISH =
  /\b(would|could|might)\b(?! ?(not|n['’]t))|\b(i|we|it)['’]d\b|\bplease\b|\bideally\b|\bnice to have\b|\bi wish\b|\b(have|has|people|users) asked for\b|\basking for\b|\b(i|we) want\b/;
export const EXPECTATION = /\b(i|we)(['’]d| would) (have )?expect/;
/** The reporter says nothing failed ("Nothing fails, but it buries real output"): what follows is no symptom. */
export const NO_FAILURE =
  /\bnothing (actually |really )?(fails|failed|breaks|broke|is broken|crashes)\b|\bnot an? (bug|failure|crash)\b/;
/**
 * The words of an improvement asked for ("Speed up startup", "Better error message when …"): in an
 * issue's title, a request; in a commit subject, what the change did ("Improve parsing speed").
 */
const IMPROVEMENT = String.raw`speed up|improve|reduce|optimi[sz]e|better|nicer|clearer|more (helpful|useful|informative|detailed|readable)`;
/** A sentence that ends on one question mark: a run of them is text garbled in transit (MOJIBAKE). */
export const ENDS_ASKING = String.raw`(?<!\?)\?\s*$`;
/** "Make error messages more helpful", "Make the delay configurable": a request, not a repair. */
const MAKE_IT_BETTER = String.raw`^make\b.{0,60}\b((more|less) (helpful|useful|informative|detailed|readable|clear|consistent|robust|forgiving|strict)|configurable|optional|pluggable|customi[sz]able)\b`;

/**
 * A title that asks for something (a feature, docs, a chore) or asks a question, how-to questions
 * included: the failure it names ("Add a `--retries` option for failed downloads", "Crash
 * reporting: in scope?", "How do I customise the error payload for validation failures") is what
 * the request or the question is about, not a symptom; its body says what was seen.
 */
export const REQUEST_TITLE = new RegExp(
  String.raw`^(please )?(add|allow|expose|provide|introduce|implement|offer|let|retry|document|explain|clarify|silence|quiet|suppress|mute|filter|drop|bump|remove|deprecate|${IMPROVEMENT})\b(?![_(.])|${MAKE_IT_BETTER}|${ENDS_ASKING}|^(how (do|can|should|would|could) (i|we|you|one)\b|what(['’]s| is) the (best|recommended|right|preferred|correct|intended|idiomatic) way\b|is there a way\b|is it possible\b)`,
);
/**
 * A title that states what the code does now, in its main clause: a subject, then a verb of behaviour
 * in the third person ("Bold next to Japanese punctuation is not rendered", "`a: -b_c` is decoded as
 * `-bc`", "Arrow.range('month') from Jan 31 gives Feb 28", "Cache files survive a clear"). A request
 * starts with the verb ("Show the finish time") or names a thing ("Retry-on-error option"); what a
 * subordinate clause says ("… when a flag is used") is the condition, not the behaviour.
 */
const REPORT_SHAPES = {
  // be or get + a past participle: what happens to the subject
  passive: String.raw`(is|are|was|were|gets|got|get)( not| never| always| still| now| silently| wrongly| sometimes| only)? (\w+ed|shown|written|given|taken|thrown|broken|sent|read|kept|lost|left|seen|run|drawn|chosen|hidden|stuck|bound|split|set|put|cut)\b`,
  // a verb of behaviour, third person
  thirdPerson: String.raw`(returns|shows|prints|gives|takes|loses|drops|skips|ignores|rejects|accepts|sends|keeps|leaves|produces|(?<!(line|page|word|column|soft|hard) )breaks|fails|crashes|hangs|stalls|doubles|grows|emits|runs|starts|waits|treats|turns|becomes|comes back|picks|decodes|encodes|parses|renders|merges|overrides|wipes|empties|recurses|survives|escapes|serves|redirects|misses|duplicates|repeats|swallows|truncates|strips|dies|exits|throws|raises|differs|appears|disappears|sees|finds|applies|converts|coerces|rounds|spins|pegs|freezes|shifts|echoes|advertises|stays|remains|retries|overwrites|deletes|replaces|mangles|corrupts|garbles|rotates|forgets|reverts|flips|does nothing|misreads|omits|allocates|consumes|spawns|recompiles|rebuilds|reruns|rerenders|slows|aborts|leaks|hides|lacks|contains|includes|requires|expects|assumes|opens|closes|clears|resets|panics|triggers|causes|stops|refuses|writes|puts|jumps|lets|hammers|floods|flickers|sorts|saves|stores|says|claims|falls back)`,
  // a plural subject and a verb of behaviour ("UTF-16 documents decode to garbage", "workers die")
  pluralSubject: String.raw`\w+s (go|grow|stay|decode|encode|ignore|give|take|print|show|die|rerun|act|return|lose|drop|skip|break|fail|crash|hang|appear|disappear|leak|differ|end up|come back|keep|run|arrive|land|point|produce)`,
  // a negated verb after the subject ("Tests don't compile", "Strings … don't round-trip")
  negated: String.raw`(don['’]t|doesn['’]t|do not|does not|didn['’]t|won['’]t|can['’]t|cannot|never|no longer) \w+`,
  // a participle without its "is": what was done to the subject, and where or when
  bareParticiple: String.raw`(not )?((?!based\b)\w{3,}ed|sent|shown|cut off|built|lost|kept|thrown|written|taken|given)( (to|when|after|for|on|in|with|as|into|from|by|even|differently|twice|again|silently|although|because|before|while|through|at)|$)`,
  // a participle and "as": what the subject was taken for ("Empty string accepted as a valid URL")
  participleAs: String.raw`(not )?((?!based\b)\w{3,}ed|read|seen|shown|taken|written|given) as\b`,
  // a wrong state: "… is truthy", "… has no attribute", "… not in the published package"
  wrongState: String.raw`(is|are|was|were) (always |never |still |now )?(true|false|truthy|falsy|empty|null|nil|none|undefined|wrong|missing|broken|zero|negative|incorrect|inverted|reversed|utc|janky|laggy|choppy|unreadable|illegible|blurry|unresponsive|frozen|blank|case[- ]sensitive|misaligned|invisible|garbled|duplicated)|ha(s|ve) no|not (in|equal to|found|available|applied|hono(u)?red|respected)|behaves? differently`,
};
const reportTitle = (shapes: readonly (keyof typeof REPORT_SHAPES)[]) =>
  // the shape may open the title: its subject is the first word ("Notifications arrive twice")
  new RegExp(String.raw`^(\S.*?)?\b(` + shapes.map((shape) => REPORT_SHAPES[shape]).join('|') + String.raw`)\b`);
export const REPORT_TITLE = reportTitle([
  'passive',
  'thirdPerson',
  'pluralSubject',
  'negated',
  'bareParticiple',
  'participleAs',
  'wrongState',
]);
/**
 * The shapes that still say a report when the issue has a body: a title's negated verb ("README
 * example doesn't show how …") or bare participle ("the diff shown when …") is as often a docs
 * request's or a question's; a participle with "as" is not.
 */
export const REPORT_TITLE_WITH_BODY = reportTitle([
  'passive',
  'thirdPerson',
  'pluralSubject',
  'participleAs',
  'wrongState',
]);
/** Where a title's main clause ends: what follows is a condition or a purpose. */
export const SUBORDINATE = /\b(when|whenever|if|unless|that|which|who|so|instead of|because|while|once|where|to)\b/;

/**
 * A sentence that tells how things are today ("Currently it says `ENOENT`", "Right now `get()`
 * throws for a 404"): in an issue that asks for something, the status quo it wants changed, not a
 * symptom.
 */
export const STATUS_QUO =
  /^\s*(currently|right now|at the moment|today|at present|as of (now|today)|as it is|for now)\b/;

/** A failure named as what something avoids ("to avoid corrupting data"): the object, not a symptom. */
export const PURPOSE = /\b(avoid(s|ing)?|prevent(s|ing)?|(guard|protect)(s|ing)? against|in case of)( \w+){1,2}/gi;

/** Symptoms of a failure: what a reporter saw, not the word "bug". */
export const FAILURE_CUES: readonly KindCue[] = [
  // an exception, an error line, a panic, a stack frame, a compiler's error code
  cue(/\b[A-Z][A-Za-z]*(Error|Exception)\b/, 1.1, 'raw'),
  cue(
    /\b[A-Z][A-Za-z]*(Error|Exception|Warning)\s*:|^\s*(error|fatal|warning|Error|ERROR|Fatal|FATAL|fatal error)( ?\[\w+\])?:/m,
    1.1,
    'raw',
  ),
  // a TLS peer's certificate refused
  cue(
    /\bx509: |\bcertificate verify failed\b|\bcertificate (signed by unknown authority|has expired)\b|\bself[- ]signed certificate in certificate chain\b/,
    1.1,
  ),
  // a system call's error code: a connection reset or refused, a port in use, a missing file
  cue(
    /\bE(CONNRESET|CONNREFUSED|CONNABORTED|ADDRINUSE|TIMEDOUT|PIPE|NOENT|ACCES|PERM|MFILE|NOTFOUND|AI_AGAIN)\b/,
    1.1,
    'raw',
  ),
  cue(
    /\bpanic(:|ked\b|s\b)|\bruntime error\b|\bTraceback\b|\bSIGSEGV\b|\bsegmentation fault\b|\bDATA RACE\b|\bUncaught\b|\bUnhandled\b|\bunhandled rejection\b/i,
    2,
    'raw',
  ),
  cue(
    /\bunexpected (token|end|character|eof|identifier|keyword)\b|\bsyntax ?error\b|\b(stops|halts|dies|bails out|aborts) (at|with|on|in)\b/,
    1.4,
  ),
  cue(
    /\b(throws?|raises?) (this|that|an?|the|it)\b(?! (minimum|min|max|maximum|version|limit|bar|default|floor|ceiling|timeout|priority)\b)|\b(can['’]t|cannot) be (used|passed|called|imported|set|combined|read|parsed)\b/,
    1,
  ),
  cue(
    /\b(ERR|E)_[A-Z][A-Z_]{3,}\b|\bTS\d{4}\b|\berror\[E\d{4}\]|\bCS\d{4}:|^undefined: [\w.]+|\*\*\* .{1,80}\.\s+Stop\./m,
    1.2,
    'raw',
  ),
  cue(/^\s*at \S.*:\d+(:\d+)?\)?\s*$|^\s*File ".+", line \d+/m, 1.6, 'raw'),
  cue(/\b\w+(Exceeded|Deprecation|Runtime|User)Warning\b|\bUnhandledPromiseRejection\w*\b/, 2, 'raw'),
  // a wrong value
  cue(/\binstead of\b/, 0.8),
  cue(MOJIBAKE, 1),
  cue(/\b(comes?|came) out (as|like)\b|\b(shows?|showed|turns?|turned) up (as|on the (next|other|wrong))\b/, 1),
  cue(
    /\bi expected\b|\bexpected (it|the|a|an|that|to|them|this|something|output|result)\b|\bexpected:|\b(i|we)(['’]d| would) (have )?expect(ed)?\b|\bthe actual (output|result|value|behaviou?r|response)\b|\b(i|we) (would|did) not expect\b|\b(i|we) (wouldn['’]t|didn['’]t) expect\b/,
    1,
  ),
  // what the reporter says a value should be ("the result should be `13%`"), not what a proposal wants
  cue(
    /\b(it|this|that|they|the \w+) should (be|have been|return|print|show|give|contain|stay|remain|equal|match)\b(?! (possible|configurable|able|optional|allowed|supported|added|documented|exposed|deprecated|removed|renamed|an option|a way|easier|clearer|updated|clarified|improved|extended|split|moved))/,
    0.6,
  ),
  cue(
    /\bbut (got|gets|get|it|the|instead|that|then|this)\b|\bbut (returns?|prints?|shows?|gives?|sends?|throws?|raises?|fails?|ends?|logs?)\b/,
    0.9,
  ),
  cue(
    /\b(a|one|an|two|three|several|a few|\d+) (day|hour|month|year|minute|second)s? (off|early|late|behind|ahead|too (early|late))\b|\b(yesterday|tomorrow)['’]s\b|\boff by (one|an? \w+|\d+)\b/,
    1.6,
  ),
  cue(
    /\bwrong\b|\bincorrect(ly)?\b|\bgarbled\b|\bmangled\b|\bcorrupt\w*|\bmisformatted\b|\btruncated\b|\bduplicated?\b|\b(is|are|gets?|got|was|were) cut off\b|\b(runs?|fires?|is called|are called|gets called|executes?|is sent|are sent|is printed|are printed|is logged|are logged) twice\b(?! as)/,
    1,
  ),
  cue(
    /\bhas no effect\b|\b(is|are|gets?|got|was|were) (silently )?(ignored|dropped|lost|skipped|swallowed|overwritten|discarded)\b|\bignores\b|\b(ignored|dropped|skipped|lost) (when|if|after|on|for|in|with|by|unless)\b|\bnot (applied|respected|honou?red|called|sent|emitted|fired|shown|found|saved|closed|removed|released|triggered|cleaned up|run|detected|recogni[sz]ed|picked up|updated|propagated|forwarded|preserved|escaped|reset)\b/,
    1,
  ),
  cue(
    /\b(never|doesn['’]t|does not|didn['’]t|did not|won['’]t|will not|can['’]t|cannot|could not|couldn['’]t|isn['’]t|is not|aren['’]t|are not|hasn['’]t|has not|haven['’]t|have not) (\w+ )?(run|ran|triggered|show|shows|display|displays|appear|appears|save|saves|sync|syncs|play|plays|reach|reaches|emit|emits|end|ends|fire|fires|return|returns|resolve|resolves|finish|finishes|complete|completes|work|works|compile|compiles|build|builds|start|starts|exit|exits|close|closes|stop|stops|load|loads|match|matches|equal|equals|find|finds|called|terminate|terminates|parse|parses|connect|connects|respond|responds|recogni[sz]e|recogni[sz]es|shut down|shuts down|quit|quits|die|dies|settle|settles|reject|rejects|report|reports|arrive|arrives)\b/,
    1.2,
  ),
  // refusal, nondeterminism, a step done twice, input that stops arriving
  cue(
    /\brefuses? to\b|\bkeeps? (changing|flipping|reordering)\b|\b(get|gets|produce|produces|give|gives) different (results?|output|files?|lock ?files?|values?)\b|\btwice\b(?! as\b)|\bnever (shows?|turns?) up\b|\bstops? (reacting|responding|working|updating)\b|\b(acts?|behaves?) (weird|strange|odd)(ly)?\b|\binconsistent (results?|output|behaviou?r)\b|\b(identical|the same) (to|as) without\b|\bmakes? no difference\b|\bstays? alive\b|\bkeeps? running\b|\bon (linux|macos|mac|windows|ubuntu|alpine|debian)\b[^.]{0,40}\bbut\b[^.]{0,40}\bon (linux|macos|mac|windows|ubuntu|alpine|debian)\b|\b(says|reports|returns|exits( with)?) (ok|0|success|nothing)\b[^.]{0,40}\bbut\b|\b(is|are|was|were) gone\b|\b(went|goes) missing\b|\bdisappear(s|ed)?\b|\b(sees?|shows?|prints?|gets?) nothing\b|\b\d+ ?(x|times) (off|too (big|small|large|high|low))\b/,
    0.8,
  ),
  cue(/\b(older|earlier|previous) versions? (just |did |would |used to )/, 1),
  // a hedge on what was observed ("the client doesn't seem to read the variable")
  cue(/\b(doesn['’]t|does not|don['’]t|do not|didn['’]t|did not) seem to\b/, 1),
  cue(
    /\b(is|are|becomes?|comes? back( as)?|returns?|gives?|yields?|prints?|shows?|sends?) (always |still |now )?(`)?(undefined|null|none|nil|nan|empty|zero|0|false)\b|`(undefined|null|none|nil|nan)`/,
    1,
  ),
  // a value that is garbage wherever it shows: undefined spliced into output, Go's bad-verb marks, [object Object]
  cue(/`[^`\n]*([:=] ?(undefined|nan)\b|<nil>|%!\w)[^`\n]*`|\[object object\]/, 1),
  // output that is not valid in its own format; an input shown turning into a wrong output
  cue(
    /\b(invalid|not valid|malformed|unparseable|unparsable) (json|yaml|xml|html|csv|toml|utf-?8|output|markup|syntax)\b|\b(is|are|gets?) rejected by (every|any|all|the) \w+/,
    1,
  ),
  cue(/`[^`\n]+` (becomes|turns into|is turned into|is converted to|is rendered as|comes out as|->|→|=>) `[^`\n]+`/, 1),
  cue(
    /\bonly (happens|fails|occurs|breaks)\b|\b(is|are) affected\b|\b(is|are|works?|worked) (\w+ ){0,2}fine\b|\bworks?[;,.]|\b(receives?|returns?|prints?|reports?|gets?|sends?|outputs?|shows?) nothing\b|\b(receives?|gets?) no \w+|\bas expected\b|\bdepends on whether\b|\bno output\b|\bnormal (results?|output)\b|\bthe normal \w+ (opens?|runs?|works?|starts?)\b|\b(works?|worked) (on|with|in|for) (\w+ ){0,3}(too|fine)\b|\b(works|worked) (fine|correctly|as expected|again)\b|(?<!\b(should|to|must|will|would|can|could) )\b(wrap|wraps|work|render|renders|open|opens|parse|parses|load|loads|behave|behaves) (correctly|normally|properly|as expected)\b|\bthe same (code|call|command|request|query|config\w*) works\b|\b(is|are) fine\b|\b(looks?|seems?) (normal|fine|correct|right|ok|stable)\b/,
    0.8,
  ),
  // a regression; a contradiction of what the docs or the spec say
  cue(
    /\b(in|with) (the )?(previous|last|prior|older|earlier) (release|version|major|minor)\b|\bit used to be\b|\bsince the (\w+ )?(bump|upgrade|update|release|switch)\b/,
    1.2,
  ),
  cue(
    /\b(says?|said|claims?|states?|documents?|according to)\b.{0,80}, but\b(?! (it['’]s|it is) not (obvious|clear))|\baccording to\b/,
    1,
  ),
  // what a standard or a reference implementation does instead
  cue(
    /\b(spec|specification|rfc( \d+)?|standard)\b (only |clearly |explicitly )?(says|requires|states|mandates|defines|normali[sz]es)\b|\b(conformance|compliance|official) test[- ]?suite\b|\bdifferently (than|from)\b|\bdiffers? from\b|\binconsistent(ly)? with\b|\b(disagrees?|contradicts?|conflicts?) with\b|\bdisagree between\b|\bonly for the (first|last)\b|\bwhile `[^`\n]+` (gives|returns|prints|outputs|produces)\b/,
    0.8,
  ),
  // a concession: what happens although it should not ("returns true, although the strings differ")
  cue(
    /\b(although|even though)\b|\bbut (no|none|nothing)\b|\b(succeeds?|passes|returns normally) silently\b|\bsilently\b|\bquietly\b|\b(even )?without (touching|changing|editing) anything\b|\bsuddenly\b/,
    0.7,
  ),
  cue(
    /\balways (returns?|prints?|shows?|gives?|uses?|picks?|reports?|falls? back)\b|\bends? up (in|as|with|being|\w+ing)\b|\berrors? (out )?with\b/,
    0.6,
  ),
  cue(
    /\bno longer\b(?! (tested|maintained|supported|needed|necessary|required|used|recommended|relevant|available upstream))|\bstopped working\b|\bused to (work|return|print|accept)\b|\bworked (in|with|before|on)\b|\bsince (upgrading|updating|bumping|the (latest|last|new|recent))\b|\bsince (the )?last (deploy|release|update|upgrade)\b|\bafter (upgrading|updating|bumping)\b|\bno \w+( \w+)? any ?more\b|\bregress\w*|\bslips? through\b|\b(don['’]t|doesn['’]t|do not|does not|won['’]t|isn['’]t|aren['’]t) (\S+ ){1,4}any ?more\b|\bbroke(n)?\b|(?<!\b(line|page|word|column|soft|hard) )\bbreaks?\b/,
    1.2,
  ),
  cue(
    /\b(returns?|gives?|outputs?|prints?|writes?|produces?|shows?|sends?|yields?|becomes?|renders?|serializ\w+ (as|to)|evaluates to) (\w+ ){0,2}`[^`]+`/,
    0.6,
  ),
  cue(
    /\bstill (?!(needs|requires|wants|seems)\b)[a-z]{2,}s\b|\b(is|are|gets?|get) still [a-z]{2,}ed\b|\bstill (follows?|sends?|returns?|prints?|shows?|runs?|calls?|uses?|writes?|includes?|contains?|happens?|fails?|throws?|raises?|there)\b|\b(disappears?|vanish(es)?|goes missing|gets lost|are lost|is lost)\b|\bmangl\w+|\bunescaped\b|\bprinted raw\b/,
    1,
  ),
  // a hang
  cue(
    /\bhang(s|ing)?\b|\bhung\b|\bfreez(e|es|ing)\b|\bfroze\b|\bstuck\b|\bdeadlock\w*|\bspins?\b|\b100 ?% cpu\b|\bnever (returns|ends|finishes|completes|resolves|exits|terminates)\b|\btimes out\b|\btimed out\b|\bblocks forever\b|\b(just |simply )?sits there\b|\b(idle|stuck|frozen|blocked|waiting) forever\b/,
    1.6,
  ),
  // slowness with numbers, growth
  cue(
    /\btakes? (about |over |nearly |almost |around |more than )?\d[\d.,]* ?(ms|s|sec|secs|seconds?|minutes?|mins?|hours?)\b|\b\d+(\.\d+)? ?(x|times) slower\b|\bslow(er|ly|s|down)?\b.{0,60}\b\d/,
    1.4,
  ),
  cue(/\bslow(er|ly|s|down)?\b/, 0.5),
  // time that grows faster than the input, a worker kept busy
  cue(
    /\bgrows (quadratically|exponentially)\b|\b(gets?|getting|becomes?|grows?) (slower|sluggish|laggy)\b|\bsluggish\b|\b(doubles|triples|quadruples) the (time|runtime)\b|\bkeeps? (a |the )?(worker|cpu|core|process|server|thread) busy\b|\b(takes|runs for) a (very )?long time\b/,
    1.4,
  ),
  cue(
    /\boom\b|\boom-killed\b|\bout of memory\b|\bmemory (grows|keeps|climbs|usage (grows|climbs|keeps))|\bleak\w*|\bkeeps? (growing|increasing|climbing)\b|\bgrows? (with|on|after|for) (every|each)\b|\bpiles? up\b|\baccumulat\w+ (memory|objects|listeners|handles|connections|timers|entries|buffers)\b|\b(memory|objects|listeners|handles|connections|timers|entries|buffers) (keep )?accumulat\w+\b|\bheap\b|\btoo many open files\b|\bemfile\b|\btakes forever\b|\bexhaust\w* (all )?(the )?(memory|heap|file descriptors|sockets|connections)\b|\bdefunct\b|\bzombies?\b|\b(processes|handles|files|connections|sockets|tabs|windows) (are )?left (behind|over|open|running)\b|\b(is|are|gets?) full of\b|\b(queue|backlog|lag)\b.{0,20}\b(just )?(grows?|keeps growing)\b/,
    1.6,
  ),
  // a test runner's or a build tool's failure lines in a pasted log or a failing check's excerpt
  cue(
    /^\s*(FAIL|FAILED|ERROR)\b|^--- FAIL:|^npm ERR!|^✖ \d+ problems?\b|^\s*\d+:\d+\s+error\s|\bProcess completed with exit code [1-9]|\bexceeded the maximum execution time\b|^##\[error\]/m,
    1.6,
    'raw',
  ),
  // a leading or trailing character lost on the way ("phone numbers lose their leading zero")
  cue(
    /\b(lose|loses|lost|drop|drops|dropped|strip|strips|stripped) (the|their|its|a) (leading|trailing) (zeros?|spaces?|slash(es)?|newlines?|characters?|digits?)\b|\bleading zeros?\b.{0,40}\b(lose|loses|lost|drops?|dropped|strips?|stripped|removed|gone|missing)\b/,
    1.2,
  ),
  // one action taken twice: a charge, an order or a message duplicated
  cue(
    /\b(charged|billed|booked|created|inserted|processed|executed|delivered) twice\b|\bdouble[- ](charges?|charged|bookings?|submits?|submissions?|spend\w*)\b|\bduplicate (charges?|orders?|payments?|emails?|records?|rows?|entries)\b|\bboth (create|charge|insert|send|run|process|write)s? (a|an|the|their)\b/,
    1.2,
  ),
  // clients that pile onto a service that is down, and keep it down
  cue(/\bretry storms?\b|\bthundering herd\b|\bnever recovers?\b|\b(in|into) a tight loop\b/, 1.4),
  // memory told by its numbers over time
  cue(MEMORY_MEASURED, 1.2),
  // a crash, a warning printed, an error reported
  cue(
    /\bcrash(es|ed|ing)?\b|\bsegfault\w*|\bkills? the process\b|\b(app|it|window|game|program) (closes?|quits?|shuts? down) (itself|immediately|by itself|on its own|suddenly)\b|\bblows? up\b|\bpanics?\b|\baborted\b|\bexits? with (code|status) [1-9]|(, |; |\(|with )exit (code|status) [1-9]\d*\b|\b(gets?|got|is|was) killed\b/,
    1.4,
  ),
  cue(
    /(?<!\b(to|should|could|would|must|can|will) )\b(prints?|printed|emits?|emitted|shows?|logs?|logged|get|gets|getting|see|seeing|raises?) (a |this |the |an |these |dozens of |many |lots of )?([\w-]+ ){0,2}warnings?\b|\bwarning:/,
    1.2,
  ),
  cue(/\berrors?\b/, 0.5),
  cue(/\bfail(s|ed|ing)\b/, 1),
  cue(/\bfailures?\b/, 0.5),
  cue(
    /\bflak(y|iness)\b|\bintermittent(ly)?\b|\brace condition\b|\bracy\b|\bsometimes (fails|hangs|crashes|returns|throws|loses|drops)\b|\bnon-?deterministic\w*|\b(changes?|differs?|varies|different \w+( \w+)?) (between|across|on (different|each|every|consecutive)) (runs?|invocations?|calls?|executions?|builds?)\b|\bfrom run to run\b|\b(is|are) not stable\b|\b(results?|output|order|behaviou?r) (differs?|is different|changes?) (between|across)\b|\bgives? a different (order|result|output|value)\b/,
    1.4,
  ),
  cue(
    /\bthrows?\b|\braises?\b(?! the (minimum|min|max|maximum|version|limit|bar|default|floor|ceiling|timeout|priority)\b)|\bthrown\b|\braised\b|\brejects?( with)?\b/,
    0.7,
  ),
  cue(/\bexceptions?\b/, 0.4),
  // a red CI step, a build that does not compile
  cue(
    /\b(ci|build|job|pipeline|workflow|tests?|npm test|go test|cargo test|checks?|lint|vet|release)\b.{0,40}(?<!\b(don['’]t|doesn['’]t|do not|does not|never|won['’]t) )\b(red|fail(s|ing|ed)?|broken|breaks)\b|\b(red|failing) on\b/,
    1.2,
  ),
  cue(
    /\b(doesn['’]t|does not|won['’]t|fails? to|no longer) (compile|build|type-?check|install|link)\b|\bcompil(e|er|ation) errors?\b|\btype errors?\b|\bincompatible (return )?types?\b|\b(mypy|pyright|pyre|tsc|the type ?checker) (complains|reports|errors|fails|flags|rejects)\b|\bnot assignable\b|\bcannot find (module|name|package)\b/,
    1.6,
  ),
  // a wrong status, a hole in security
  cue(
    /\b(returns?|gets?|got|responds? with|answers? with|is|a) (an? )?(4\d\d|5\d\d)\b|\b(404|500|502|422|400)s?\b/,
    0.8,
  ),
  cue(
    /\bspoof\w*|\binjection\b|\binject(s|ed)?\b|\barbitrary (code|commands?|files?)\b|\btraversal\b|\bpwned\b|\bcan (read|write|access|overwrite) (any|other|arbitrary)\b|\bleaks? (the |a )?(token|secret|password|key)s?\b|\bprototype pollution\b|\bpollut(es?|ed|ing|ion)\b|__proto__|\b(credentials?|tokens?|cookies?|authorization|passwords?|secrets?|api keys?)( headers?)?\b.{0,40}\b(sent|leaked|forwarded|exposed|passed) to (another|other|a different|the wrong|an? (untrusted|third[- ]party)|third[- ]party)\b|\b(an attacker|a malicious \w+) can\b/,
    1.6,
  ),
  cue(ATTACK_PAYLOAD, 1.6),
  cue(AUTH_BYPASS, 1.6),
  // one behaviour in one place, another elsewhere
  cue(PLATFORM_DIFFERENCE, 1.2),
  cue(
    /\b(any|every|an untrusted) (user|client|caller|request|input|website|page|script) can (read|write|add|change|modify|overwrite|delete|run|execute|access)\b/,
    1,
  ),
  // a title that says what a piece of code does now ("`isEmail` accepts …", "replace() keeps …"):
  // a request says what it should do, a question asks
  cue(
    /^(`[^`]+`|[\w.:]+\(([^()]|\([^()]*\))*\))( (and|or|with|on|in|for) (`[^`]+`|[\w.:]+\(([^()]|\([^()]*\))*\)|\w+))?( \w+)? (?!(is|has|was|does|needs|wants|requires|supports)\b)[a-z]+s\b(?![^?]*\?)/,
    1,
    'title',
  ),
  // the words reporters use
  cue(/\bbugs?\b|^bug:|\bdefect\b/, 1),
  cue(/^\s*steps\b|\bto reproduce\b|\brepro(duction|duce)?\b|\bsteps to\b|\bminimal (example|reproduction)\b/, 1),
  cue(/\b(doesn['’]t|does not|don['’]t|do not) work\b|\bnot working\b|\bunusable\b/, 1.2),
  // the reporter says nothing is broken
  cue(
    /\b(it['’]?s|it is|is|are|they['’]re|they are|seems|looks) (\w+ )?(harmless|cosmetic)\b|\bnothing (is )?broken\b/,
    -1,
  ),
];

/** The shape of a task that reports no failure, by kind. */
export const KIND_CUES = {
  feature: [
    // an issue (not a commit subject) whose title asks for an improvement
    cue(new RegExp(String.raw`^(please )?(${IMPROVEMENT})\b(?![_(.])`), 1.2, 'issueTitle'),
    cue(new RegExp(MAKE_IT_BETTER), 1.2, 'issueTitle'),
    cue(
      /^(please )?(add|allow|support|expose|provide|enable|introduce|implement|accept|let|offer|make it possible|option to|ability to|new option|feature request|feat|feature:|request:)\b(?![_(.])/,
      1.2,
      'title',
    ),
    cue(
      /^(print|show|log|emit|warn|display|report|generate|create|make|include|detect|infer|validate|group|export|read|load|parse|render)\b(?![_(.])[^.!?]*\b(when|if|for|by default|in|from|with|as)\b/,
      0.8,
      'title',
    ),
    // a title that names a thing to be built and what it would do ("a strict mode that rejects …")
    cue(
      /^([\w`.:-]+ ){0,3}(mode|option|flag|variant|setting|helper|hook|method|api|function|parameter|argument|command|subcommand|convenience)s? (that|which|to|for)\b/,
      0.8,
      'title',
    ),
    cue(
      /\b(could|should|might|can we) (offer|have|provide|accept|support|expose|gain|grow)\b|\b(could|might)(?! not\b| ?n['’]t\b) ([\w-]+ ){1,2}(offer|provide|accept|support|expose|gain|grow)\b|\bmode\b.{0,40}\b(that|which|so that)\b/,
      0.7,
    ),
    cue(
      /\bit would be (nice|great|good|convenient|handy|useful|helpful|awesome|cool)\b|\bwould be (nice|great|convenient|handy|useful|helpful) (to|if)\b/,
      1,
    ),
    cue(
      /\bi['’]?d (like|love)\b|\bi would (like|love)\b|\bwe would like\b|\bwe['’]d like\b|\bwould like to\b|\bwould love\b/,
      0.8,
    ),
    cue(
      /\bfeature request\b|\bcould (you|we) (add|support|expose|provide)\b|\bplease (add|support|consider)\b|\bnice to have\b|\bout of the box\b/,
      1,
    ),
    cue(
      /\bwould (save|make|help|let|allow|simplify|be a)\b|\bopt-in\b|\bas an alternative\b|\bsupport for\b|\bkeep (the )?current behaviou?r\b|(^|[.!?] )(useful|handy|helpful) (for|when|to|in)\b/m,
      0.7,
    ),
    cue(
      /\b(a|an|new) (option|setting|flag|hook|api|method|parameter|field|config(uration)? option|context setting)\b/,
      0.5,
    ),
  ],
  question: [
    // "Can't run …", "Doesn't start …" report; "Can I …", "Does it …" ask
    cue(
      /^(how|what|which|where|when|why|is|are|can|could|should|does|do|will|would|any|has|have|who)\b(?!['’]t|n['’]t)/,
      0.8,
      'title',
    ),
    cue(new RegExp(ENDS_ASKING), 0.8, 'title'),
    cue(
      /\bwhat['’]?s the difference\b|\bdifference between\b.{0,80}\?|\bhow (do|can|should|would|could) (i|we|you|one)\b|\bhow to\b|\bis there (a|an) (way|recommended|built-in|option|setting)\b|\bis it possible\b|\bwhat['’]?s? (is )?the (recommended|best|right|preferred|correct|intended|idiomatic) (way|approach|pattern)\b|\brecommended (way|approach|pattern)\b|\bbest practices?\b|\bany (advice|tips|pointers)\b|\bwhat is the recommended\b/,
      1,
    ),
    cue(/\bofficially supported\b|\bbest effort\b|\bis .{1,40} supported\?/, 0.6),
  ],
  docs: [
    cue(/\b(it['’]s|it is|isn['’]t|is not) (not )?(obvious|clear|documented)\b|\bunclear\b/, 0.6),
    cue(
      /^(docs?|documentation|readme)\b(?!\s+(build|builds|site|generation|generator|tooling|scripts?|server|job|workflow|step|deploy\w*|pipeline)\b)|^(document|explain|clarify|describe|mention|list)\b|\b(migration|upgrade) guide\b|\b(in|to|from) the (docs|documentation|readme|guide)\s*$/,
      1.4,
      'title',
    ),
    cue(
      /\b(in|to) the (docs|documentation|readme|guide|changelog)\b|\bmention (that|it|this)\b|\b(the )?docs (explain|describe|cover)\b/,
      0.8,
    ),
    cue(
      /\b(add|list) (our|my|\w+) (project|company|org\w*|logo) to\b|\blist of (users|organi[sz]ations|projects|companies|adopters)\b/,
      1.5,
    ),
    cue(
      /\b(the )?(docs|documentation|readme|guide|tutorial)\b.{0,60}\b(would help|should (say|mention|explain|list)|could (say|mention|explain|list|be added)|is (unclear|missing|outdated)|doesn['’]t (say|mention|explain))\b|\b(a )?(table|section|page|example|paragraph) (in|to|on) the (docs|documentation|readme|guide)\b/,
      1,
    ),
    cue(/\bdocs?\b(?![./]\w)|\bdocumentation\b|\breadme\b(?![./]\w)|\btypos?\b|\bexamples?\b(?![./]\w)/, 0.3),
    // prose to mend: a broken or dead link, a typo, a release note missing
    cue(
      /^(broken|dead) (links?|anchors?) (in|on|to|from) (the |our )?(docs|documentation|readme|contributing|guide|website|site|wiki|changelog|tutorial|api reference)\b|^typos?\b(?!.*\b(makes?|causes?|breaks?|crash\w*|leads? to|results? in|silently)\b)|^(spelling|grammar)\b|^(changelog|release notes?)\b|\b(readme|ci|build|status|coverage) badges?\b|\b(faq|readme|docs?|documentation|guide|tutorial|wiki|man page|changelog) (entry|section|page|note|paragraph)\b|^update (the )?(docs?|documentation|readme|examples?|guide|tutorial|faq)\b|^(improve|expand|extend|rewrite|tweak|polish|clarify|fix)\b.{0,60}\b(docs|documentation|readme|guide|changelog|release notes)\s*$|\b(changelog|release notes?) (entry )?(is )?(missing|doesn['’]t mention|does not mention|omits)\b/,
      2,
      'title',
    ),
  ],
  chore: [
    // a warning to silence is a chore even when it is quoted
    cue(/^(silence|quiet|suppress|mute|filter|hide)\b.{0,60}(warnings?|noise|deprecation\w*)\b/, 1.5, 'title'),
    cue(
      /^(raise|increase|lower) (the )?(minimum|min|required|supported)\b|^treat (\w+ ){0,2}warnings as errors\b|^(silence|quiet|suppress|mute|drop|bump|upgrade|release|cut|tag|publish|move|migrate|rename|refactor|remove|replace|switch|pin|unpin|deprecate|clean ?up|chore|ci:|build:|enable dependabot|update (the )?(dependencies|deps|ci|workflows?))\b(?![_.]|\((?![^)\s]*\):))/,
      1,
      'title',
    ),
    cue(
      /\b(ci|test) matrix\b|\bend[- ]of[- ]life\b|\beol\b|\bdependabot\b|\brenovate\b|\bclassifiers?\b|\b(cut|tag|publish) a (new )?(release|minor|major|patch|version)\b|\bnew (release|minor|major)\b|\bengines\b|\bspeed up (the )?ci\b/,
      0.8,
    ),
    cue(/\bbump\w*\b|\bworkflows?\b|\bci\b|\bbenchmarks?\b|\bminimum (supported )?(node|python|go|rust)\b/, 0.4),
  ],
  discussion: [
    cue(/^(should|shall|rfc|proposal|discussion|discuss|thoughts|idea|thank|thanks|kudos)\b/, 1.4, 'title'),
    cue(/\bthank(s| you)\b|\bgreat work\b|\bkudos\b|\bappreciate\b/, 1),
    cue(/\b(in|out of) scope\b|\b(live|belong) (here|in (core|this repo\w*))\b|\bstay third-party\b/, 1),
    // a proposal stated as such (a proposed fix in a report is not one)
    cue(/(^|\n|[.!?] )(proposal|suggestion|idea):/, 1),
    cue(
      /\bshould we\b|\bshall we\b|\bwhat do (you|people|others|maintainers) think\b|\bthoughts on\b|\bopinions?\b|\bgauge interest\b|\bbefore (anyone|i|we) (writes?|opens?|starts?)\b|\bhappy to (draft|open|send|write) a pr\b|\broadmap\b|\bis .{0,30} planned\b|\bcollect (feedback|opinions)\b|\btrade-?offs?\b/,
      1,
    ),
  ],
} as const satisfies Record<string, readonly KindCue[]>;
