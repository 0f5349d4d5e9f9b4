/**
 * Lessons: what a fix specifically teaches, in repository-agnostic words. A catalog of lessons
 * that recur in software everywhere, each with the condition that breaks, the behaviour that
 * fails and the check that catches it, and the general words that point to it. A fix (or a task)
 * that names one of them gets that lesson; fixes that teach the same lesson merge into one
 * insight; a fix that names none keeps its own condition as its lesson (see the rules abstractor).
 *
 * The cues are general software vocabulary, written from how these bugs are described anywhere,
 * not from any repository's words; each needs a score of 1 to count, so one common word alone
 * ("default", "error") never names a lesson. Pure: no I/O.
 */
import type { RoutineCue, RoutineKind } from './routines.js';
import { cueText, cueWeight } from './text.js';

export interface Lesson {
  id: string;
  kind: RoutineKind;
  /** names the lesson: the condition and what breaks */
  title: string;
  /** one sentence: why it breaks */
  description: string;
  /** one to three sentences: the check that would have caught it */
  check: string;
  cues: readonly (readonly [RegExp, number])[];
}

const L = (
  id: string,
  kind: RoutineKind,
  title: string,
  description: string,
  check: string,
  cues: readonly (readonly [RegExp, number])[],
): Lesson => ({ id, kind, title, description, check, cues });

export const LESSONS: readonly Lesson[] = [
  // ------------------------------------------------------------ edge input
  L(
    'falsy-value-as-absent',
    'edge-input',
    'A falsy but valid value (false, 0, empty string) must not be treated as absent',
    'A presence check written as a truthiness test drops or overrides values that are valid but falsy.',
    'Test each falsy value (false, 0, an empty string, an empty list) where the code checks whether a value was given, and assert it is kept rather than replaced by the default.',
    [
      [/\bfalsy\b|\bfalsey\b/i, 1.5],
      [
        /\b(false|0|zero|empty string)\b.{0,40}\b(ignored|treated as|overrid\w*|replaced|default|unset|absent|missing|dropped)\b/i,
        1.2,
      ],
      [/\b(ignored|treated as|overrid\w*|replaced|dropped)\b.{0,30}\b(false|zero|0|empty string)\b/i, 1.2],
      [/\bempty\b.{0,20}\b(treated as|as) (unset|absent|missing|not set)\b|\bempty string\b/i, 0.8],
    ],
  ),
  L(
    'absent-value-stringified',
    'edge-input',
    'An absent value (null, undefined, None) must be left out, not written as the text "null"',
    'String building that interpolates an absent value writes the literal word into a path, URL, header or output.',
    'Build the output with each optional part absent and assert the result contains neither the part nor the words null, undefined or None.',
    [
      [
        /\b(null|undefined|none|nil)\b.{0,40}\b(appended|append\w*|added|written|printed|in (the )?(url|path|query|string|output|header|name)|stringif\w*|serializ\w*|as (a )?string)\b/i,
        1.3,
      ],
      [/\b("null"|'null'|"undefined"|'undefined')\b/i, 1],
    ],
  ),
  L(
    'empty-input',
    'edge-input',
    'Empty input (an empty string, list, pattern, file or argument list) must take its own path',
    'Code written for typical input indexes, splits or iterates an empty value and crashes or does the wrong thing.',
    'Add a test that passes the changed code each empty form of its input (empty string, empty list, no arguments, empty file) and assert a sensible result or a clear error.',
    [
      [/\bempty\b/i, 0.8],
      [/\bempty [a-z]\w*/i, 0.4],
      [
        /\b(no|zero|without) (arguments?|args|input|items?|elements?|entries|values?|files?|results?|matches|patterns?|lines?|commands?|options?|children|rows?|data|body|content|payload|message|name|value)\b/i,
        1,
      ],
      [/\b(no|zero|without) \w+s\b/i, 0.6],
      [/\b(null|nil|none|undefined) (body|value|input|argument|payload|content)\b/i, 0.6],
      [/\bzero[- ](length|size|width|items)\b|\b0[- ](length|size|bytes?)\b|\bblank\b/i, 1],
      [/\b(is|are|was|were|when) (given )?(nothing|empty)\b/i, 0.5],
    ],
  ),
  L(
    'missing-part-crash',
    'edge-input',
    'A missing optional part (nil, null, None, no name) must not crash the code that reads it',
    'Code that assumes an optional field, name or value is set dereferences it and panics or throws.',
    'Construct the object or input with only its required parts and call every public method on it; assert no crash and a sensible default.',
    [
      [
        /\b(nil|null|none|undefined|missing|not set|unset)\b.{0,40}\b(panic\w*|crash\w*|throws?|exception|segfault|error)\b/i,
        1.1,
      ],
      [/\b(panic\w*|crash\w*|throws?|exception)\b.{0,40}\b(nil|null|none|undefined|missing)\b/i, 1.1],
      [/\b(nil|null) (pointer|dereference|reference)\b|\bnoneType\b|\bcannot read propert/i, 1.3],
      [/\b(panic\w*|crash\w*|segfault)\b/i, 0.5],
    ],
  ),
  L(
    'boundary-position',
    'edge-input',
    'The first, last and one-past-the-end positions must be tested, not only the middle',
    'Off-by-one errors hide at the ends of a range, a string or a collection.',
    'Add cases at the boundaries of every range the change touches: the first and last element, exactly at a limit and one past it, and a single-element input.',
    [
      [/\boff[- ]by[- ]one\b|\bout of (range|bounds)\b|\bindex (out|error)\b|\bindexerror\b/i, 1.5],
      [
        /\bboundar(y|ies)\b|\blast (element|item|line|char\w*|page)\b|\bfirst (element|item|line|char\w*)\b|\bend of (the )?(range|string|input|file|line)\b/i,
        1,
      ],
      [/\b(exclusive|inclusive)\b|\bupper bound\b|\blower bound\b|\b24:00\b|\bmidnight\b/i, 0.8],
      [/\b(maximum|minimum|max|min|limit)\b/i, 0.6],
    ],
  ),
  L(
    'numeric-extremes',
    'edge-input',
    'Numbers at their extremes (zero, negative, very large, NaN, fractions) must be tested',
    'Arithmetic and parsing written for small positive integers overflow, round wrongly or accept NaN.',
    'Test the changed computation with zero, a negative value, the largest supported value, a fraction and NaN, and assert the exact result or a clear error.',
    [
      [
        /\b(over|under)flow\w*\b|\bnan\b|\binfinity\b|\bprecision\b|\brounding\b|\bfloat(ing point)?\b|\bintegers?\b/i,
        1,
      ],
      [/\bnegative\b|\blarge (numbers?|values?|files?|inputs?)\b|\bhuge\b|\bbig ?int\b/i, 1],
      [/\bdivi(de|sion) by zero\b/i, 1.5],
    ],
  ),
  L(
    'special-characters-in-input',
    'edge-input',
    'Input with separators and special characters (spaces, quotes, colons, a lone dash) must survive parsing',
    'Splitting, quoting and tokenizing written for plain words break on characters that have a meaning of their own.',
    'Test the parser or formatter with values that contain spaces, quotes, the separator itself, a lone dash, a trailing backslash and non-letter characters, and assert the value comes back unchanged.',
    [
      [
        /\bspecial characters?\b|\b(colons?|semicolons?|commas?|quotes?|brackets?|braces|spaces?|dash(es)?|hyphens?|slash(es)?|dots?|equals sign|percent|ampersand)\b/i,
        0.7,
      ],
      [/"-"|'-'|\blone dash\b|\bdouble dash\b|"--"/i, 1.2],
      [/\b(whitespace|trailing|leading)\b/i, 0.6],
      [/\bescap(e|ed|ing)\b(?! sequence)|\bunescap\w*\b|\bquot(e|ed|ing)\b/i, 0.6],
      [/\b(glob|regex|regular expression|wildcard)s?\b/i, 0.5],
    ],
  ),
  L(
    'malformed-input-rejected',
    'edge-input',
    'Malformed input must be rejected with a clear error, not half-parsed',
    'A lenient parser accepts input with extra or invalid parts and returns a wrong value instead of failing.',
    'Feed the parser inputs with extra characters, missing parts and invalid values, and assert each is rejected with an error (or an invalid result) rather than parsed into something plausible.',
    [
      [
        /\bmalformed\b|\binvalid (input|format|dates?|strings?|values?|syntax|json|urls?|numbers?)\b|\bnot returning invalid\b/i,
        1.2,
      ],
      [/\bstrict(ly)? pars\w*|\bpars(e|er|ing)\b.{0,40}\b(accept\w*|allow\w*|invalid|extra|garbage|spaces?)\b/i, 0.9],
      [/\bincorrect(ly)? pars\w*|\bwrong(ly)? pars\w*|\bpars\w* (error|bug|issue)\b/i, 0.8],
    ],
  ),
  L(
    'non-advancing-loop',
    'edge-input',
    'A loop or recursion must advance on every input, or it hangs',
    'A parser or walker that does not consume input on some path loops forever or overflows the stack.',
    'Add a test with the input that made no progress (and a cycle, for graphs and links) under a timeout, and assert it finishes.',
    [
      [
        /\binfinite (loop|recursion)\b|\bstack overflow\b|\bmaximum (call stack|recursion)\b|\brecursion (depth|limit)\b/i,
        1.5,
      ],
      [/\b(cycles?|cyclic|circular|symlink loops?)\b/i, 0.7],
    ],
  ),
  L(
    'unknown-value',
    'edge-input',
    'A value outside the known set (an unknown method, key, name or type) must be refused cleanly, not crash',
    'A lookup that assumes its key is one of the known ones dereferences nothing and panics or throws on anything else.',
    'Call the changed code with a value it does not know (an unknown method, key, enum name or type) and assert a clear error or a documented fallback, not a crash.',
    [
      [
        /\b(unknown|unsupported|unrecogni[sz]ed|unregistered|undeclared|invalid) (methods?|keys?|names?|types?|values?|commands?|options?|fields?|kinds?|formats?|encodings?)\b/i,
        1.2,
      ],
      [/\bnot (in|found in|part of|present in|registered in|listed in)\b/i, 0.7],
      [/\b(panic\w*|crash\w*|throws?|exception)\b/i, 0.4],
    ],
  ),
  L(
    'repeated-values',
    'edge-input',
    'A key given several times (repeated headers, parameters, flags or fields) must keep every value, or the documented one',
    'Code that stores one value per key overwrites, merges or double-counts values given more than once.',
    'Pass the same key twice with different values (and with the same value) and assert the documented result: all values in order, the last one, or a clear error; assert nothing is counted twice.',
    [
      [
        /\b(repeated|duplicat\w*|multiple (values|headers|times|occurrences|entries)|twice|double[- ]count\w*|more than once|several times)\b/i,
        1.1,
      ],
      [/\b(headers?|parameters?|params|keys?|flags?|fields?|values?|entries|cookies?)\b/i, 0.3],
    ],
  ),
  L(
    'anchored-pattern',
    'edge-input',
    'A pattern must match the whole value where it must, not just a part of it',
    'An unanchored regular expression or wildcard accepts values that merely contain a match, or matches at the wrong place.',
    'Test the pattern with values that contain a match at the start, the middle and the end, and with a prefix or suffix added, and assert which are accepted; anchor the expression where the whole value must match.',
    [
      [/\b(regex\w*|regexp|regular expressions?|patterns?|wildcards?|globs?|route matching|matcher)\b/i, 0.6],
      [
        /\b(only (a )?part of|partial(ly)? match\w*|anchor\w*|whole (value|string|path|word)|entire (value|string|path)|at (the )?end of|prefix|suffix|more than \d+)\b/i,
        0.6,
      ],
    ],
  ),
  L(
    'open-redirect',
    'security-validation',
    'A redirect target taken from the request must stay on the same site',
    'A redirect built from a referer, a path or a parameter that starts with // or a scheme sends the user to another host.',
    'Test the redirect with targets such as //evil.example, /\\evil.example, https://evil.example and an encoded slash, and assert each stays on the same origin or is refused.',
    [
      [/\bredirect\w*\b/i, 0.6],
      [
        /\b(refer(r)?er|open redirect|slash(es)?|protocol[- ]relative|location header|back url|return url|next url)\b|\/\//i,
        0.6,
      ],
    ],
  ),
  L(
    'display-width',
    'encoding-locale',
    'Text width on screen is not its length: test alignment with wide characters, tabs and escape codes',
    'Padding, wrapping and alignment computed from string length break on wide characters, tabs, combining marks and invisible escape codes.',
    'Render the changed output with CJK and emoji text, tabs, combining accents and ANSI colour codes, and assert the columns line up and lines wrap at the right width.',
    [
      [/\b(display )?width\b|\balign\w*\b|\bwrap(ping|ped|s)?\b|\bpadding\b|\bcolumns?\b/i, 0.6],
      [
        /\b(caret notation|control char\w*|escape codes?|ansi|colou?rs?|styles?|emoji|cjk|wide char\w*|tabs?|combining)\b/i,
        0.6,
      ],
    ],
  ),
  L(
    'case-insensitive-names',
    'edge-input',
    'Names a protocol or platform treats as case-insensitive must match in any case',
    'Header names, encodings, schemes, hosts and some file names compared case-sensitively miss values written in another case.',
    'Test each such comparison with the value in lower, upper and mixed case, and assert it matches; compare after normalizing the case rather than with a plain equality.',
    [
      [
        /\bcase[- ]?insensitiv\w*\b|\bcase[- ]?sensitiv\w*\b|\b(upper|lower|mixed)[- ]?case\b|\bcapitali[sz]ation\b/i,
        1.2,
      ],
    ],
  ),
  L(
    'path-joining',
    'edge-input',
    'Joining paths and URLs must neither double nor drop a separator',
    'Concatenating a prefix and a path doubles or loses slashes at the joint, and drops or duplicates a query string.',
    'Join every combination of a prefix with and without a trailing slash and a path with and without a leading slash (and with a query string), and assert exactly one separator and the query kept once.',
    [
      [
        /\b(double|trailing|leading|duplicate|extra|missing) (slash(es)?|separators?)\b|\b(double|trailing|leading) \/|\/\//i,
        1,
      ],
      [
        /\bnest(ed|ing)? (routes?|routers?|paths?)\b|\bjoin(ing|ed)? (paths?|urls?)\b|\bprefix(es|ed)?\b|\bmount(ed|ing)?\b/i,
        0.6,
      ],
      [/\bslash(es)?\b|\bquery (strings?|parameters?|params)\b/i, 0.4],
    ],
  ),
  L(
    'unexpected-input-type',
    'edge-input',
    'Code that receives values of several types must be tested with each of them',
    'A function written for strings breaks on a number, a list, bytes or an object it also receives in practice.',
    'Call the changed code with each type a caller may pass (a string, a number, a list, bytes, an object, a subclass) and assert a correct result or a clear type error.',
    [
      [/\bnon-?(strings?|str|numeric|numbers?|integers?|lists?|dicts?|objects?|iterables?|bytes)\b/i, 1.1],
      [
        /\b(strings?|str|integers?|int|floats?|lists?|dicts?|objects?|bytes|arrays?|numbers?) (instead of|rather than|as well as|or)\b.{0,20}\b(strings?|str|integers?|int|floats?|lists?|dicts?|objects?|bytes|arrays?|numbers?)\b/i,
        1,
      ],
      [
        /\bwhen an? (integer|number|int|float|list|dict|object|string|tuple) is passed\b|\bwrong type\b|\btype coercion\b/i,
        1,
      ],
    ],
  ),
  // ------------------------------------------------------------ encoding and locale
  L(
    'time-zone-offset',
    'encoding-locale',
    'Date code must be tested in time zones far from UTC, on both sides',
    'Date arithmetic and formatting can be right in the author\u2019s time zone and wrong for an offset of the other sign or more than a few hours.',
    'Run the date tests with the process time zone set to a large positive and a large negative offset (UTC+13, UTC-10) and compare instants, not formatted strings.',
    [
      [/\btime ?zones?\b|\btz\b|\btimezone\w*\b/i, 1.3],
      [
        /\butc\b|\bgmt\w*\b|(^|\s)[+-]\d{2}:\d{2}\b|\b(utc|gmt)[+-]\d{1,2}(:?\d{2})?\b|\boffsets?\b.{0,20}\b(sign|hours?|zone)\b/i,
        1,
      ],
      [/\biana\b|\bzone (names?|ids?)\b|\boffsets?\b/i, 0.7],
      [/\b(etc|america|europe|asia|africa|australia|pacific|atlantic)\/[a-z]\w*/i, 1],
      [/\blocal time\b|\bdates?\b.{0,30}\b(shift\w*|off by|wrong day|previous day|next day)\b/i, 0.8],
    ],
  ),
  L(
    'dst-transition',
    'encoding-locale',
    'Date arithmetic must be tested across a daylight-saving change',
    'Adding days or comparing dates across a DST change gains or loses an hour and lands on the wrong day.',
    'Add cases that add, subtract and compare dates on both sides of a spring-forward and a fall-back transition, in a time zone that has DST.',
    [[/\bdst\b|\bdaylight[- ]saving\w*\b|\bsummer ?time\b|\bspring forward\b|\bfall back\b/i, 1.6]],
  ),
  L(
    'locale-dependent-output',
    'encoding-locale',
    'Locale-dependent output must be tested under a locale other than English',
    'Formatting, sorting and parsing that depend on the locale are right in English and wrong elsewhere.',
    'Run the affected tests under at least one non-English locale with other number, date and ordering rules, and assert the localized result.',
    [
      [/\blocales?\b|\bi18n\b|\bl10n\b|\bintl\b|\blocali[sz]\w*\b/i, 1.3],
      [/\btranslations?\b/i, 0.8],
      [/\b(week ?days?|month names?|plural\w*|ordinals?|first day of (the )?week)\b/i, 0.8],
    ],
  ),
  L(
    'bytes-versus-characters',
    'encoding-locale',
    'A length in bytes is not a length in characters: test with multi-byte text',
    'Code that counts or slices text by characters where bytes are meant (or the reverse) is right for ASCII and wrong for multi-byte text.',
    'Test with multi-byte text (accents, CJK, emoji) and assert byte lengths (headers, buffers, offsets) and character lengths (display, truncation) separately.',
    [
      [/\bcontent[- ]length\b|\bbyte (length|count|size|offset)s?\b|\b(multi[- ]?byte|wide) char\w*\b/i, 1.4],
      [/\butf-?8\b|\bcharset\b/i, 0.8],
      [/\b(length|width|truncat\w*|slic\w*|column\w*)\b.{0,30}\b(unicode|emoji|cjk|utf-?8|characters)\b/i, 1],
    ],
  ),
  L(
    'text-encoding-round-trip',
    'encoding-locale',
    'Non-ASCII text and bytes must round-trip through every read, write and decode',
    'Text written, read or decoded with the wrong or a default encoding garbles non-ASCII characters or fails on bytes that are not valid text.',
    'Write and read back text with accents, emoji and an invalid byte sequence through each changed path (files, streams, headers, URLs, terminals) and assert the exact text or a clear decoding error.',
    [
      [/\bunicode\b|\bnon-?ascii\b|\bemoji\b|\baccent\w*\b|\blatin-?1\b|\biso-8859\b/i, 1.1],
      [/\b(en|de)cod(e|es|ed|ing|er|ers)\b/i, 1],
      [/\bbytes?\b.{0,20}\b(text|strings?|str)\b|\b(text|str) (and|vs|or) bytes\b|\bbinary\b/i, 0.7],
      [/\bmojibake\b|\bgarbled\b|\bpercent[- ]encod\w*\b|\burl[- ]?encod\w*\b/i, 1.2],
    ],
  ),
  L(
    'line-endings',
    'encoding-locale',
    'Text must be tested with CRLF and CR line endings, not only LF',
    'Code that splits, matches or counts lines on LF alone breaks on files written on Windows or old Macs.',
    'Add cases with CRLF, lone CR and a missing final newline to every line-based reader or matcher the change touches.',
    [[/\bcrlf\b|\bline[- ]?endings?\b|\bline[- ]?terminators?\b|\\r\\n|\bcarriage returns?\b|\bnewlines?\b/i, 1.4]],
  ),
  // ------------------------------------------------------------ platform
  L(
    'windows-paths',
    'platform-compat',
    'Paths must be tested in Windows form (backslashes, drive letters, UNC), not only POSIX',
    'Path handling written with forward slashes doubles, drops or misreads separators, drive letters and UNC prefixes on Windows.',
    'Run the path tests on Windows in CI, with drive letters, backslashes, UNC paths and mixed separators, and build paths with the platform path library instead of string concatenation.',
    [
      [/\bwindows\b|\bwin32\b|\bwin64\b/i, 1],
      [/\bpath separators?\b|\bbackslash(es)?\b|\bdrive letters?\b|\bunc paths?\b|\bseparators?\b/i, 0.8],
      [/\bpaths?\b/i, 0.3],
    ],
  ),
  L(
    'shell-specific-behaviour',
    'platform-compat',
    'Shell integration must be tested in each supported shell',
    'Quoting, completion and escaping rules differ between bash, zsh, fish and PowerShell, so output that is right in one shell breaks in another.',
    'Run the shell integration (completion scripts, generated commands) under each supported shell in CI, with values that contain spaces, colons and quotes.',
    [
      [/\b(bash|zsh|fish|powershell|pwsh|cmd\.exe|sh)\b/i, 1.1],
      [/\b(shell )?completions?\b|\bshells?\b/i, 0.6],
    ],
  ),
  L(
    'runtime-version-matrix',
    'platform-compat',
    'Run the tests on every supported runtime version, oldest and newest',
    'A runtime release changes a built-in behaviour, an error message or an API, so code and tests that pass on one version fail on another.',
    'Keep a CI matrix with the oldest and newest supported runtime versions (and the next one, allowed to fail), and avoid asserting on messages the runtime writes.',
    [
      [/\bnode(\.?js)? ?v?\d+|\bpython ?[23](\.\d+)?\b|\bgo ?1\.\d+\b|\bruby ?\d|\bjava ?\d+\b|\bpy3\d+\b/i, 1.2],
      [
        /\b(newer|older|latest|new|old) (node|python|runtime|go|rust|java|ruby|v8|engines?|jvm|interpreters?|versions? of (node|python|go|rust))\b|\bruntime versions?\b/i,
        1,
      ],
      [/\bmsrv\b|\bminimum supported\b/i, 1],
    ],
  ),
  L(
    'legacy-target-compat',
    'platform-compat',
    'Code must run on the oldest engine or browser it supports',
    'A newer language feature or built-in used in shipped code is missing in an older browser, engine or minifier that users still have.',
    'Run the built output through the oldest supported target in CI (an old browser or engine, or a syntax check for that target) and fail on any unsupported feature.',
    [
      [
        /\bie ?\d+\b|\binternet explorer\b|\bsafari\b|\bold(er)? browsers?\b|\bes5\b|\bes3\b|\bpolyfill\w*\b|\blegacy\b/i,
        1.3,
      ],
      [/\btranspil\w*\b|\bminif\w*\b|\buglif\w*\b/i, 0.6],
    ],
  ),
  L(
    'file-system-differences',
    'platform-compat',
    'File-system behaviour (timestamps, case, links, permissions) differs between systems: test it there',
    'Timestamp resolution, case sensitivity, symbolic links and permissions differ between file systems, so code that relies on one behaviour fails on another.',
    'Test file operations on each supported system with coarse timestamps, case-only renames, symbolic links and read-only files, and avoid relying on a modification time changing between two quick writes.',
    [
      [/\b(mtime|modification time|timestamps?)\b|\bsymlinks?\b|\bsymbolic links?\b|\bhard ?links?\b/i, 1],
      [/\bfile ?systems?\b|\bpermissions?\b|\bread[- ]only\b|\bnfs\b|\bmount\w*\b/i, 0.7],
      [/\b(macos|darwin|linux|freebsd|bsd|android|ios)\b/i, 0.5],
    ],
  ),
  // ------------------------------------------------------------ concurrency
  L(
    'shared-mutable-state',
    'concurrency-async',
    'Operations that run at the same time must not share mutable state',
    'Globals, module-level caches and shared buffers written by concurrent callers give each other\u2019s results.',
    'Run the operation concurrently with itself many times (under a race detector where the language has one) and assert each call gets only its own result.',
    [
      [/\brace( conditions?)?\b|\bracy\b|\bdata races?\b/i, 1.2],
      [/\bconcurren\w*\b|\bparallel\w*\b|\bthread[- ]?safe\w*\b|\bthreads?\b|\bgoroutines?\b/i, 0.9],
      [/\bglobals?\b|\bshared (state|buffer|cache|map)\b|\bmutable\b|\bsingleton\b/i, 0.7],
      [
        /\b(rw)?mutex(es)?\b|\bspinlocks?\b|\bsemaphores?\b|\batomic(ally)?\b|\btoctou\b|\btime[- ]of[- ]check\b|\bcheck[- ]then[- ]act\b/i,
        1,
      ],
    ],
  ),
  L(
    'pending-async-work',
    'concurrency-async',
    'Finish (resolve, emit end, close) only after all pending asynchronous work has completed',
    'An operation that reports completion while a callback, write or promise is still pending loses or reorders that work.',
    'Add a test where the last asynchronous step is slow (a delayed callback or write) and assert nothing is reported complete, and nothing is lost, before it finishes.',
    [
      [/\basync\w*\b|\bawait\w*\b|\bpromises?\b|\bcallbacks?\b/i, 0.5],
      [
        /\b(before|after|until|while)\b.{0,30}\b(complet\w*|finish\w*|resolv\w*|done|end(ed)?|pending|flush\w*)\b/i,
        0.8,
      ],
      [/\b(order|ordering|sequence)\b|\bpremature\w*\b|\btoo early\b|\bnot awaited\b/i, 0.8],
    ],
  ),
  L(
    'cancellation',
    'concurrency-async',
    'Cancellation (an abort signal, a closed request) must be honoured at every asynchronous step',
    'An abort that arrives between two asynchronous steps is missed, so work goes on, resources stay open or a later step throws.',
    'Test aborting before the start, during each awaited step and after completion, and assert the operation stops, rejects with the abort reason and releases what it opened.',
    [
      [
        /\babort\w*\b|\bcancel\w*\b|\babortsignal\b|\babortcontroller\b|\binterrupt\w*\b|\bctrl-?c\b|\bsigint\b|\bsigterm\b/i,
        1.3,
      ],
      [/\bcontext\b.{0,30}\b(propagat\w*|cancel\w*|deadlines?|done)\b/i, 1.3],
    ],
  ),
  L(
    'timeouts',
    'concurrency-async',
    'Every wait needs a timeout, and the timeout path needs a test',
    'A wait without a bound hangs forever when the other side never answers, and an untested timeout path leaks or reports the wrong error.',
    'Add a test where the dependency never answers and assert the operation fails with a timeout error within its bound and leaves nothing running.',
    [
      [
        /\btime ?outs?\b|\btimed out\b|\bhang(s|ing)?\b|\bhung\b|\bstuck\b|\bdeadlock\w*\b|\bnever (returns|resolves|finishes|ends)\b/i,
        1.2,
      ],
    ],
  ),
  L(
    'use-after-close',
    'concurrency-async',
    'Sending, writing or calling after the other side has closed must not crash',
    'A producer that keeps writing after the consumer has shut down panics or throws on the closed channel, stream or socket.',
    'Close the receiving side first (stop the consumer, end the stream, drop the connection) while work is still being produced, and assert the producer stops cleanly.',
    [
      [/\b(after|once)\b.{0,20}\b(clos\w*|shut ?down|ended|end|exit\w*|disconnect\w*|dropped)\b/i, 1],
      [
        /\bclosed (channel|stream|socket|pipe|connection)\b|\bbroken pipe\b|\bepipe\b|\bwrite after end\b|\breceiver\b/i,
        1.2,
      ],
    ],
  ),
  // ------------------------------------------------------------ resources
  L(
    'listener-leak',
    'performance-resource',
    'Listeners must be removed when their work ends: the listener count must stay flat',
    'A listener added on every call to a long-lived object (a pooled connection, a server, a signal) accumulates and leaks memory.',
    'Call the operation many times on the same long-lived object, including calls that fail or are aborted, and assert its listener count returns to the starting value.',
    [
      [/\blisteners?\b|\bevent handlers?\b|\bsubscri\w*\b|\bmaxlisteners\w*\b|\bon\(\w*\)/i, 1],
      [/\bleak\w*\b|\bclean(ed)? ?up\b|\bremov\w*\b|\baccumulat\w*\b/i, 0.7],
    ],
  ),
  L(
    'resource-release',
    'performance-resource',
    'Files, sockets, handles and child processes must be released on every path, including errors',
    'A resource opened on a path that returns early or throws is never closed, and the process runs out of handles or memory.',
    'Count open handles, sockets or child processes before and after the operation, including when it fails, and assert they return to the starting value.',
    [
      [/\bleak\w*\b/i, 1],
      [/\b(file descriptors?|fds?|handles?|sockets?|connections?|child process\w*|processes|zombies?)\b/i, 0.6],
      [
        /\bclos(e|es|ed|ing)\b|\brelease[sd]?\b|\bdispos\w*\b|\bclean ?up\b|\bfinaliz\w*\b|\bon exit\b|\bteardown\b/i,
        0.6,
      ],
      [/\btoo many open\b|\bemfile\b|\bexhaust\w*\b|\bout of memory\b|\bmemory (usage|growth)\b/i, 1.2],
      [/\b(connection|thread|worker|object) pool\w*\b|\bpooling\b|\bpooled\b/i, 0.6],
    ],
  ),
  L(
    'bounded-work',
    'performance-resource',
    'Work that scales with input must be bounded: limit parallelism and avoid quadratic paths',
    'Unbounded parallelism or a quadratic loop is fine on small inputs and exhausts the machine on large ones.',
    'Benchmark the changed path on a large input with a simple budget, and bound parallel work by a limit (such as the CPU count) rather than the input size.',
    [
      [/\bslow\w*\b|\bperf(ormance)?\b|\bquadratic\b|\bo\(n\^?2\)|\bcpu\b|\bspeed\w*\b|\bfaster\b/i, 1],
      [
        /\b(limit\w*|bound\w*|throttl\w*|too many)\b.{0,20}\b(processes|workers|threads|requests|concurren\w*|parallel\w*)\b/i,
        1,
      ],
      [/\bcach(e|es|ed|ing)\b|\bmemoiz\w*\b/i, 0.5],
      [
        /\b(body|size|request|upload|memory|payload|buffer|line) (size )?limits?\b|\blimits? (on|of) (the )?(body|size|request|upload|payload)\b/i,
        1,
      ],
    ],
  ),
  // ------------------------------------------------------------ errors
  L(
    'error-reaches-caller',
    'error-handling',
    'An error raised in a callback, hook or handler must reach the caller, not vanish',
    'An error thrown inside a callback, hook or asynchronous step is swallowed or leaves the operation hanging instead of failing it.',
    'For each hook or callback the change touches, add a test that makes it throw (and reject) and assert the caller receives that error and the operation ends.',
    [
      [
        /\bswallow\w*\b|\buncaught\b|\bunhandled\b|\bsilent(ly)?\b|\bignor\w* (the )?errors?\b|\berrors? (are |is )?(lost|ignored|dropped)\b/i,
        1.3,
      ],
      [/\bpropagat\w*\b|\bnot respond\w*\b|\bnever (called|respond\w*|reject\w*)\b|\brejection\b/i, 1],
      [/\bthrows?\b|\bthrown\b|\bthrowing\b|\berrors?\b/i, 0.3],
      [/\b(hooks?|callbacks?|handlers?|listeners?|middleware)\b/i, 0.3],
    ],
  ),
  L(
    'error-masked',
    'error-handling',
    'A cleanup or fallback error must not hide the original error',
    'When cleanup or a second handler fails, its error replaces the first one, and the caller sees the wrong cause.',
    'Make the main step and then its cleanup fail in one test and assert the caller receives the main error (with the cleanup error attached or logged, not instead).',
    [
      [
        /\bshadow\w*\b|\bmask\w*\b|\bhid(e|es|den|ing)\b.{0,20}\berrors?\b|\boriginal errors?\b|\boverwrit\w* (the )?errors?\b/i,
        1.4,
      ],
      [
        /\b(cleanup|finally|after|defer\w*|teardown)\b.{0,30}\berrors?\b|\berrors?\b.{0,30}\b(cleanup|finally|teardown)\b/i,
        0.8,
      ],
      [/\b[A-Z]\w*(Error|Exception)\b.{0,60}\b[A-Z]\w*(Error|Exception)\b/, 1.1],
    ],
  ),
  L(
    'error-output-channel',
    'error-handling',
    'Errors go to standard error with a failing exit status, never to standard output with 0',
    'An error printed to standard output, or an exit status of 0 after a failure, breaks pipelines and scripts that rely on them.',
    'Run the failing command in a test, capture both streams and the exit status, and assert the message is on standard error and the status is non-zero.',
    [
      [/\bstderr\b|\bstdout\b|\bstandard (error|output)\b/i, 1.3],
      [/\bexit (codes?|status)\b|\breturn codes?\b|\bexits? (with )?(0|zero|1|non-?zero)\b/i, 1.3],
    ],
  ),
  L(
    'error-message-content',
    'error-handling',
    'An error must render a message that names what failed, even when built with only some of its fields',
    'An error object built without its optional fields prints an empty, wrong or crashing message.',
    'Create each error type with only its required arguments and with all of them, and assert its string form names the failing input and does not itself raise.',
    [
      [
        /\berror messages?\b|\bmessages? (of|for) (the )?errors?\b|\bstr(ing)? (cast|form|representation|conversion) of\b|\brepr\b|\btostring\b/i,
        1.3,
      ],
      [/\b(exception|error)s? (class|type|object)\b|\bwrong (error|exception)\b/i, 0.7],
      [
        /\b(stack traces?|tracebacks?|log(s|ged|ging)?|print(s|ed|ing)?)\b.{0,30}\b(panics?|errors?|exceptions?)\b|\b(panics?|errors?|exceptions?)\b.{0,30}\b(printed|logged)\b|\brecover(y|ed|s)?\b/i,
        1,
      ],
    ],
  ),
  L(
    'error-classification',
    'error-handling',
    'Classify errors by their kind or code, not by their text, and decide which are benign',
    'Errors that are expected (not found, permission denied, broken pipe) are reported as failures, or real failures are ignored, because the check looks at the wrong property.',
    'Trigger each class of error the code can meet (missing file, no permission, interrupted, not a directory) and assert which are reported and which are skipped.',
    [
      [
        /\b(io|os|system) errors?\b|\berrno\b|\benoent\b|\beacces\b|\beperm\b|\bpermission denied\b|\bnot found errors?\b|\berror (kinds?|types?|codes?)\b/i,
        1.2,
      ],
      [/\bbased on (the )?(type|kind|code)\b|\bbenign\b|\bexpected errors?\b/i, 0.8],
    ],
  ),
  // ------------------------------------------------------------ security
  L(
    'shell-command-injection',
    'security-validation',
    'Never build a shell command from a string: pass arguments as a list, and test hostile values',
    'A command assembled by string concatenation or split on spaces lets a value with quotes or metacharacters change what runs.',
    'Pass arguments as a list to the process API (no shell), and add tests with values containing spaces, quotes, semicolons and $() that assert they arrive as one literal argument.',
    [
      [
        /\bshell ?(=|injection|true|command)\b|\bcommand (string|injection|line splitting)\b|\bshlex\b|\bexec\w* (of )?(user|untrusted)\b/i,
        1.3,
      ],
      [/\bsaniti[sz]\w*\b|\binject\w*\b|\bmetachar\w*\b/i, 0.7],
      [/\b(spawn|exec|subprocess|system\(\))\b/i, 0.5],
    ],
  ),
  L(
    'terminal-escape-injection',
    'security-validation',
    'Untrusted text printed to a terminal must have its control characters neutralised',
    'File names, messages or data containing escape sequences can rewrite the terminal, hide output or trigger actions when printed raw.',
    'Print values containing ANSI escape sequences, carriage returns and other control characters through each output path and assert they are escaped or removed.',
    [
      [/\bescape sequences?\b|\bansi\b|\bcontrol char\w*\b|\bterminal\b/i, 1],
      [/\binject\w*\b|\bsaniti[sz]\w*\b|\bhyperlinks?\b/i, 0.6],
    ],
  ),
  L(
    'spoofed-client-header',
    'security-validation',
    'Headers a client can set (X-Forwarded-For, Host) must be trusted only from known proxies',
    'Trusting a forwarded header from any client lets it spoof its address, protocol or host.',
    'Send requests with forged forwarding headers from an untrusted address and assert the server ignores them; test each trust setting (none, a hop count, a list of proxies).',
    [
      [/\bx-forwarded\w*\b|\bforwarded (for|headers?)\b|\btrust ?prox\w*\b|\bproxy trust\b|\bspoof\w*\b/i, 1.4],
      [/\bclient (ip|address)\b|\bhop[- ]count\b|\bhost header\b/i, 0.8],
    ],
  ),
  L(
    'credentials-across-hosts',
    'security-validation',
    'Credentials (Authorization, cookies) must not follow a redirect to another host',
    'A client that keeps sending authorization headers or cookies after a redirect leaks them to a host that should not see them.',
    'Follow a redirect to another host (and to another scheme or port) in a test and assert the Authorization header and cookies are dropped, and kept for the same host.',
    [
      [/\bauthori[sz]ation\b|\bcredentials?\b|\bcookies?\b|\btokens?\b|\bauth headers?\b|\bbasic auth\b/i, 0.8],
      [/\bredirect\w*\b|\banother (host|domain|origin)\b|\bcross[- ](origin|domain|site)\b/i, 0.7],
    ],
  ),
  L(
    'path-traversal',
    'security-validation',
    'A path built from untrusted input must stay inside its root',
    'A name containing a parent-directory step or an absolute path lets a caller read or write outside the intended directory.',
    'Resolve each untrusted path against its root and test names with ../, absolute paths, encoded separators and symbolic links, asserting they are refused.',
    [
      [
        /\bpath traversal\b|\bdirectory traversal\b|\.\.\/|\bzip slip\b|\boutside (the )?(root|directory|folder)\b/i,
        1.5,
      ],
    ],
  ),
  L(
    'header-value-injection',
    'security-validation',
    'A value written into a header must be escaped: quotes, newlines and non-ASCII cannot pass through',
    'A file name, cookie or redirect target copied into a header unescaped breaks its syntax or lets a caller inject another header.',
    'Write values containing quotes, semicolons, CR and LF and non-ASCII characters through each header the change builds, and assert they are escaped or encoded and no new header appears.',
    [
      [/\bcontent-disposition\b|\bset-cookie\b|\bheader (values?|injection|splitting)\b|\bresponse splitting\b/i, 1],
      [/\bescap\w*\b|\bquot\w*\b|\bcrlf\b|\bnewlines?\b|\binject\w*\b|\bfile ?names?\b/i, 0.5],
    ],
  ),
  L(
    'weak-randomness',
    'security-validation',
    'Secrets and tokens must come from a cryptographic random source, without bias',
    'Random values made with a general-purpose generator, or reduced with a modulo, are predictable or uneven, so tokens can be guessed.',
    'Generate tokens with the platform cryptographic generator, draw uniformly (rejection sampling, not a modulo), and test the distribution of many draws.',
    [
      [
        /\brandom\w*\b.{0,30}\b(bias\w*|predictab\w*|weak|modulo|uniform\w*)\b|\b(bias\w*|predictab\w*|weak)\b.{0,30}\brandom\w*\b/i,
        1.2,
      ],
      [/\bentropy\b|\bcsprng\b|\bmath\.random\b|\bcrypto(graphic)?(ally)? (secure|random)\b|\bnonces?\b/i, 1],
    ],
  ),
  L(
    'optional-platform-feature',
    'platform-compat',
    'A feature the platform may lack (TLS, a hash, a system call, an optional module) must be detected and reported clearly',
    'Code that assumes an optional part of the runtime exists fails at import or with an unrelated error where it is missing.',
    'Run the tests with the optional feature made unavailable (mock its import or its absence) and assert a clear error at the point of use, and that everything else still works.',
    [
      [
        /\b(no|without|absent|missing|unavailable|not available|lacks?)\b.{0,30}\b(support|modules?|features?|hash(es)? functions?|library|libraries|ssl|tls|ipv6|system calls?)\b/i,
        1,
      ],
      [/\bat runtime\b|\bimport ?errors?\b|\bbuilt without\b|\bcompiled without\b|\bare absent\b|\bis absent\b/i, 0.6],
    ],
  ),
  // ------------------------------------------------------------ contracts and tools
  L(
    'public-behaviour-regression',
    'api-compat',
    'Pin the public behaviour callers rely on with tests before refactoring',
    'A change that looks internal alters a public method, return value or error that callers depend on.',
    'Before changing the code, write tests that use the public API exactly as callers do (arguments, results, errors, subclassing and decorating) and keep them passing; treat a needed change as a breaking one.',
    [
      [/\bregress(ion|ions|ed)?\b|\bbreaking( changes?)?\b|\bbackwards?[- ]compat\w*\b|\bno longer\b/i, 1.1],
      [/\brestor\w*\b|\brevert\w*\b|\bprevious(ly)?\b|\bused to\b|\bintroduced (in|by)\b/i, 0.6],
      [/\bpublic api\b|\bcontract\b|\bsemver\b|\bdecorat\w*\b|\bsubclass\w*\b|\binherit\w*\b/i, 0.6],
    ],
  ),
  L(
    'dependency-upgrade',
    'dependency-compat',
    'Test against the newest and oldest dependency versions you allow',
    'A new major version of a dependency removes an API, changes a default or deprecates what the code uses, and a version range lets it in.',
    'Run the suite against the newest and the oldest allowed versions of each dependency in CI, read the changelog for removals and deprecations, and land the version change with the code that adapts to it.',
    [
      [/\bdependenc(y|ies)\b|\bdeps\b|\bupgrad\w*\b|\bpeer\b|\block ?files?\b/i, 1],
      [/\bdeprecat\w*\b/i, 0.8],
      [/\bv\d+(\.\d+)*\+?\b|\bversion \d+\b|\bcompatib\w*\b|\bnew (major )?version\b/i, 0.5],
      [/\b[a-z][\w.-]* ?(>=|<=|\^|~=|==|~>) ?v?\d+\.\d+/i, 1],
    ],
  ),
  L(
    'published-types',
    'type-check',
    'Test the published type declarations as callers use them',
    'Type declarations drift from the runtime behaviour, so valid calls are rejected (or invalid ones accepted) by the type checker.',
    'Add type tests that compile real call sites (accepted and rejected ones, including null and optional values) and run the type checker on them in CI.',
    [
      [/\btypes?\b|\btypings?\b|\btyped\b/i, 0.7],
      [
        /\btypescript\b|\bmypy\b|\bpyright\b|\btsc\b|\bd\.ts\b|\btype[- ](hints?|checker|checking|definitions?|declarations?|signatures?|annotations?|errors?)\b|\bgenerics?\b/i,
        1.2,
      ],
    ],
  ),
  L(
    'linter-clean',
    'lint-format',
    'Keep the linter, vet and formatter as required CI steps, and fix new warnings',
    'A new linter or compiler release adds rules, and warnings that are not a failing step pile up until they hide a real defect.',
    'Run the linter, vet tool and formatter with pinned versions as a failing CI step, and fix new findings when upgrading them rather than silencing them.',
    [
      [
        /\blint\w*\b|\bclippy\b|\bgo vet\b|\bvet\b|\beslint\b|\bflake8\b|\bruff\b|\bpylint\b|\bstaticcheck\b|\bgofmt\b|\brustfmt\b|\bprettier\b/i,
        1.3,
      ],
      [/\bwarnings?\b|\bunused\b|\bformat(ting|ter)\b/i, 0.5],
    ],
  ),
  L(
    'build-from-clean',
    'build-packaging',
    'Build, pack and install the artifact from a clean checkout in CI',
    'Build scripts, bundlers and package manifests break or ship the wrong files while tests that run from source still pass.',
    'Add a CI step that builds from a clean checkout, packs the artifact, installs it into an empty project and imports or runs it, failing on any build error or missing file.',
    [
      [/\bbuild(s|ing)?\b|\bcompil\w*\b|\bbundl\w*\b|\bwebpack\b|\brollup\b|\besbuild\b|\bvite\b/i, 0.8],
      [
        /\bpackag\w*\b|\bpublish\w*\b|\bdist\b|\bartifacts?\b|\bmakefile\b|\bsetup\.py\b|\bwheel\b|\bexports? (map|field)\b|\besm\b|\bcommonjs\b|\bcjs\b/i,
        0.7,
      ],
      [/\balready declared\b|\bredeclared\b|\bundefined reference\b|\blinker\b|\blink(ing)? errors?\b/i, 1],
    ],
  ),
  L(
    'cross-target-build',
    'build-packaging',
    'Build for every target platform and architecture you ship',
    'A native dependency or build flag that works on the main platform fails to compile or link for another target.',
    'Keep a CI build matrix over every shipped target (operating system, architecture, libc) and fail the release when one of them does not build.',
    [
      [
        /\bandroid\b|\barm(64|v7)?\b|\baarch64\b|\bmusl\b|\bcross[- ]?compil\w*\b|\btargets?\b|\barchitectures?\b|\b32[- ]bit\b/i,
        1,
      ],
      [/\bbuild\w*\b|\bcompil\w*\b|\bbinar(y|ies)\b|\bnative\b/i, 0.4],
    ],
  ),
  L(
    'ci-pipeline',
    'ci-config',
    'Treat the CI workflow as code: pin what it uses and test changes to it',
    'A CI workflow breaks on a runner, tool or permission change and stops checking anything while looking green or red for the wrong reason.',
    'Pin the versions of actions and tools the workflow uses, give it the secrets and permissions it needs explicitly, and run a changed workflow on a branch before merging.',
    [
      [
        /\bci\b|\bcontinuous integration\b|\bgithub[- ]actions?\b|\bworkflows?\b|\btravis\b|\bcircleci\b|\bappveyor\b|\bpipelines?\b/i,
        1.2,
      ],
      [/\bcoverage\b|\brunners?\b|\bmatrix\b/i, 0.5],
    ],
  ),
  // ------------------------------------------------------------ configuration
  L(
    'environment-variable-states',
    'config-env',
    'An environment variable must be tested set, unset and set to an empty string',
    'Code that checks an environment variable by its truthiness or presence treats an empty value, or an unset one, the wrong way.',
    'Test each environment variable the change reads in three states (unset, set to an empty string, set to a value) and assert the documented behaviour for each.',
    [
      [/\benv(ironment)? ?var(iable)?s?\b|\benv\b|\bdotenv\b/i, 1],
      [/\benvironment\b/i, 0.6],
      [/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/, 0.6],
    ],
  ),
  L(
    'value-source-precedence',
    'config-env',
    'When a value can come from several sources, test their precedence',
    'A value given on the command line, in the environment, in a config file and as a default must win in a documented order, and a refactor silently changes it.',
    'Set the same setting in every source at once (flag, environment, config file, default) and assert the documented winner, then remove sources one at a time.',
    [
      [/\bprecedence\b|\bpriority\b|\boverrid\w*\b|\btakes? over\b/i, 1.2],
      [/\b(config(uration)?( files?)?|settings?|environment|flags?|options?|defaults?)\b/i, 0.3],
    ],
  ),
  L(
    'default-applies-when-absent',
    'config-env',
    'A default must apply exactly when no value was given, and keep the value\u2019s shape',
    'A default that replaces a given value, or a shorthand (a number for an object) merged without normalizing, gives callers a setting they did not ask for.',
    'Test each option with no value, with the shorthand form and with the full form, and assert the effective setting; check the default is not shared between calls.',
    [
      [/\bdefaults?\b/i, 0.8],
      [/\b(options?|settings?|config\w*|parameters?|arguments?)\b/i, 0.4],
      [/\bshorthand\b|\bwhen specifying\b|\bmerg\w*\b/i, 0.5],
    ],
  ),
  L(
    'flag-parsing',
    'config-env',
    'Command-line parsing must be tested with every form of a flag: short, long, combined, repeated',
    'A flag parser handles the usual form and breaks on a short alias, a value attached with =, combined short flags, a repeated flag or a value that looks like a flag.',
    'Test each changed flag as --name value, --name=value, -n value, -nvalue, combined with other short flags, repeated, and with a value starting with a dash.',
    [
      [
        /\bflags?\b|\bshort options?\b|\blong options?\b|\bcommand[- ]line\b|\bargv\b|\bargument parsing\b|\bargs parsing\b/i,
        0.9,
      ],
      [/(^|[\s`'"(/])-{1,2}[a-z][\w-]*\b/i, 0.6],
      [/\b(hyphen|dash)(es)?\b|\bvalues? (that )?(start|begin)\w* with\b/i, 0.5],
      [/\b(option|argument)s? terminator\b|\bend of options\b/i, 1],
      [/\bpars(e|er|ing)\b|\barguments?\b|\boptions?\b|\bsubcommands?\b/i, 0.4],
    ],
  ),
  L(
    'hermetic-tests',
    'config-env',
    'Tests must not depend on, or leak, ambient state (environment, working directory, globals)',
    'A test or test helper that reads or changes the environment, working directory or global settings passes alone and fails, or breaks others, in another order or machine.',
    'Run the suite in random order and in a clean environment, and make each test helper save and restore what it changes (environment, working directory, global settings).',
    [
      [
        /\btest (runner|helper|harness|isolation)\b|\bisolat\w*\b|\bhermetic\b|\bambient\b|\bworking directory\b|\bcwd\b/i,
        1,
      ],
      [/\b(restor\w*|sav\w*|leak\w*)\b.{0,20}\b(env\w*|state|settings?|globals?)\b/i, 0.8],
    ],
  ),
  L(
    'schema-migration',
    'data-migration',
    'Run every migration against a fresh database and against a copy of the current one',
    'A migration that works on the author\u2019s database fails on an empty one or on real data with unexpected rows.',
    'Apply all migrations to an empty database and to a copy with realistic data in CI, then run the tests; test the rollback where one exists.',
    [[/\bmigrat\w*\b|\bschema\b|\bdatabase\b|\bsql\b|\bcolumns?\b|\btables?\b/i, 0.9]],
  ),
];

/**
 * The lesson a text names most, with its score; none below the bar of 1. With `kind`, only that
 * kind's lessons (the fix's files or checks already say which kind it is).
 */
export function detectLesson(
  texts: readonly (readonly [string, number])[],
  kind?: RoutineKind,
): { lesson: Lesson; score: number } | undefined {
  const read = texts.filter(([raw]) => raw !== '').map(([raw, factor]) => [readable(raw), factor] as const);
  let best: { lesson: Lesson; score: number } | undefined;
  for (const lesson of LESSONS) {
    if (kind !== undefined && lesson.kind !== kind) continue;
    let score = 0;
    for (const [text, factor] of read)
      score += Math.round(Math.min(cueWeight(lesson.cues, text.text, text.lower), 2.5) * factor * 100) / 100;
    if (score >= 1 && (!best || score > best.score)) best = { lesson, score };
  }
  return best;
}

/** A cue this strong (a platform name, an architecture) says the kind by itself. */
export const STRONG_CUE = 1.2;

/**
 * Whether a text's strongest cue outranks a lesson it names: a strong cue of another kind beats a
 * lesson named by one weak word ("32-bit" says platform even where "target" names a build lesson).
 * The same rule on both sides: the rules abstractor reading a fix, recall reading a task.
 */
export function cueOutranksLesson(
  strongest: RoutineCue | undefined,
  found: { lesson: { kind: RoutineKind }; score: number },
): boolean {
  return (
    strongest !== undefined &&
    strongest.weight >= STRONG_CUE &&
    found.score < STRONG_CUE &&
    found.lesson.kind !== strongest.kind
  );
}

/** Every lesson a text names, best first (scores of at least `min`). */
export function rankLessons(raw: string, min = 1): { lesson: Lesson; score: number }[] {
  const found: { lesson: Lesson; score: number }[] = [];
  const text = readable(raw);
  for (const lesson of LESSONS) {
    const sum = Math.round(cueWeight(lesson.cues, text.text, text.lower) * 100) / 100;
    if (sum >= min) found.push({ lesson, score: Math.min(sum, 2.5) });
  }
  return found.sort((a, b) => b.score - a.score);
}

/** A text as the cues read it: as written, and lowercased for the patterns that dropped their `i` flag. */
interface Readable {
  text: string;
  lower: string;
}

function readable(raw: string): Readable {
  const text = cueText(raw);
  return { text, lower: text.toLowerCase() };
}

export function lessonById(id: string): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}

/** The lesson tag stored on insights. */
export function lessonTag(id: string): string {
  return `lesson:${id}`;
}

export function lessonOfTags(tags: readonly string[]): string | undefined {
  return tags.find((t) => t.startsWith('lesson:'))?.slice('lesson:'.length);
}
