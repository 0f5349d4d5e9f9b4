/** The routine kind edge-input (empty, null and missing input): its cues, routines and lessons. */
import { defineKind } from '../entry.js';

export const edgeInput = defineKind({
  kind: 'edge-input',
  template: {
    label: 'empty, null and missing input',
    title: 'Test the empty, null and missing inputs of the code you change',
    description: 'Code written for typical values breaks on an empty string or list, a null or missing value, or zero.',
    check:
      'Before calling a fix done, add test cases that pass the changed code an empty string and an empty collection, a null, undefined or missing value, and zero, and assert a sensible result or a clear error rather than a crash.',
    why: 'Tests that only use typical values let this kind of bug through; one empty-input case fails before such a fix and passes after it.',
    also: 'include empty, null and missing values in that test',
    step: 'Add test cases for empty, null, missing and zero input.',
  },
  facets: [
    {
      name: 'empty',
      cue: /\b(empty|blank|null|nil|none|undefined|nullish|missing|zero|no (arguments?|args|input|names?|values?|items?|elements?))\b/i,
    },
    {
      name: 'boundary',
      cue: /\b(boundar(y|ies)|off[- ]by[- ]one|out[- ]of[- ](range|bounds)|(over|under)flow|index|max(imum)?|min(imum)?|negative|single|limits?|infinite loop)\b/i,
      template: {
        label: 'boundary values',
        title: 'Test the boundaries: first, last, largest, smallest and one past the end',
        description:
          'Off-by-one errors, overflows and out-of-range indexes hide at the edges of a range, not in its middle.',
        check:
          'For every range the change touches, add test cases at the minimum, the maximum, one below and one above each, a single element and a very large input, and assert the exact result.',
        why: 'A boundary case fails before such a fix and passes after it, where typical values pass both times.',
        also: 'include the boundary values of each range in that test',
        step: 'Add test cases at each boundary: minimum, maximum, one past either end, a single element.',
      },
    },
    {
      name: 'malformed',
      cue: /\b(malformed|invalid|whitespace|spaces?|trailing|leading|pars(e|er|ing)|special characters?|unexpected (input|characters?))\b/i,
      template: {
        label: 'malformed inputs',
        title: 'Feed the code malformed and unusual input, not only well-formed examples',
        description:
          'Parsers and validators fail on stray whitespace, unexpected characters, partial values and inputs that look valid but are not.',
        check:
          'Add test cases with leading and trailing whitespace, unexpected characters, truncated and over-long values and almost-valid input, and assert that each is either handled exactly or rejected with a clear error.',
        why: 'Well-formed examples pass before and after such a fix; one malformed case tells them apart.',
        also: 'add malformed and almost-valid input to that test',
        step: 'Add test cases with whitespace, unexpected characters and almost-valid input.',
      },
    },
  ],
  learnedRule: 'Test the {p} with empty, missing and boundary values',
  vocabulary: 'empty null zero boundary edge case malformed missing input',
  textCues: [
    // a number written as text: its leading zeros are part of it (a phone number, a zip code)
    [/\bleading zeros?\b/i, 1],
    [/\b(empty|blank)\b/i, 1],
    [/\b(null|nil|none|undefined|nan|nullish)\b/i, 1],
    [/\bzero\b|\b0-(length|size)|\bzero-(length|size)/i, 1],
    [/\b(to|=|as|put|puts|with|of) 0\b(?![.,\s]*\d)|\w\(0\)/i, 1],
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
    [/\bunterminated\b|\bunclosed\b|\bmissing (a |the )?clos(ing|e)\b/i, 1],
    [
      /\bnegative (offsets?|index(es)?|indices|sizes?|durations?|amounts?)\b|\bstarts? and ends? on the same\b|\bthe same (start and end|day)\b|\bleave (it |the \w+ )?blank\b/i,
      1,
    ],
  ],
  lessons: [
    {
      id: 'ignore-pattern-semantics',
      title: 'Ignore and glob patterns must follow their documented rules: anchoring, negation, directories',
      description:
        'A matcher for .gitignore-style or glob patterns treats an anchored pattern as unanchored, ignores a negation, or lets a directory-only pattern match a file, so files are wrongly skipped or kept.',
      check:
        'Test the changed matcher with a pattern anchored by a leading slash, a negated pattern after a broader one, a trailing-slash (directory-only) pattern and a ** pattern, against files and directories at several depths.',
      cues: [
        [
          /\b(git|npm|docker|rg|fd)?ignore (files?|patterns?|rules?|globs?)\b|\.(git|npm|docker)?ignore\b|\bglob (patterns?|matching|semantics)\b/i,
          1.2,
        ],
        [/\bnegat(ed|ion|ive) (patterns?|globs?|rules?)\b|\banchored\b|\bdirectory[- ]only\b|\*\*\//i, 0.8],
      ],
    },
    {
      id: 'falsy-value-as-absent',
      title: 'A falsy but valid value (false, 0, empty string) must not be treated as absent',
      description: 'A presence check written as a truthiness test drops or overrides values that are valid but falsy.',
      check:
        'Test each falsy value (false, 0, an empty string, an empty list) where the code checks whether a value was given, and assert it is kept rather than replaced by the default.',
      cues: [
        [/\bfalsy\b|\bfalsey\b|\btruthiness\b/i, 1.5],
        // an explicit zero for a limit, a timeout or a count
        [
          /\b(follow|timeout|limit|retries|max\w*|count|size|depth)(=| ?= ?|: ?)0\b|\blimited\(0\)|\b(zero|0) (timeouts?|limits?|retries|counts?|values?)\b.{0,40}\b(immediate\w*|honou?r\w*|enforc\w*|respect\w*|ignored|treated)\b/i,
          1.2,
        ],
        [
          /\b(false|0|zero|empty string)\b.{0,40}\b(ignored|treated as|overrid\w*|replaced|default|unset|absent|missing|dropped)\b/i,
          1.2,
        ],
        [/\b(ignored|treated as|overrid\w*|replaced|dropped)\b.{0,30}\b(false|zero|0|empty string)\b/i, 1.2],
        [/\bempty\b.{0,20}\b(treated as|as) (unset|absent|missing|not set)\b|\bempty string\b/i, 0.8],
      ],
    },
    {
      id: 'absent-value-stringified',
      title: 'An absent value (null, undefined, None) must be left out, not written as the text "null"',
      description:
        'String building that interpolates an absent value writes the literal word into a path, URL, header or output.',
      check:
        'Build the output with each optional part absent and assert the result contains neither the part nor the words null, undefined or None.',
      cues: [
        [
          /\b(null|undefined|none|nil)\b.{0,40}\b(appended|append\w*|added|written|printed|in (the )?(url|path|query|string|output|header|name)|stringif\w*|serializ\w*|as (a )?string)\b/i,
          1.3,
        ],
        [/\b("null"|'null'|"undefined"|'undefined')\b/i, 1],
      ],
    },
    {
      id: 'empty-input',
      title: 'Empty input (an empty string, list, pattern, file or argument list) must take its own path',
      description:
        'Code written for typical input indexes, splits or iterates an empty value and crashes or does the wrong thing.',
      check:
        'Add a test that passes the changed code each empty form of its input (empty string, empty list, no arguments, empty file) and assert a sensible result or a clear error.',
      cues: [
        [/\bempty\b/i, 0.8],
        [/\bempty [a-z]\w*/i, 0.4],
        // what the code is given, not what it gives back ("returns no results" is a symptom of anything)
        [
          /(?<!\b(returns?|returned|finds?|found|gives?|gave|shows?|showed|yields?|gets?|got|brings? up) )\b(no|zero|without) (arguments?|args|input|items?|elements?|entries|values?|files?|results?|matches|patterns?|lines?|commands?|options?|children|rows?|data|body|content|payload|message|name|value)\b/i,
          1,
        ],
        [
          /(?<!\b(returns?|returned|finds?|found|gives?|gave|shows?|showed|yields?|gets?|got|brings? up) )\b(no|zero|without) \w+s\b/i,
          0.6,
        ],
        [/\b(null|nil|none|undefined) (body|value|input|argument|payload|content)\b/i, 0.6],
        [/\bzero[- ](length|size|width|items)\b|\b0[- ](length|size|bytes?)\b|\bblank\b/i, 1],
        [/\b(is|are|was|were|when) (given )?(nothing|empty)\b/i, 0.5],
      ],
    },
    {
      id: 'missing-part-crash',
      title: 'A missing optional part (nil, null, None, no name) must not crash the code that reads it',
      description: 'Code that assumes an optional field, name or value is set dereferences it and panics or throws.',
      check:
        'Construct the object or input with only its required parts and call every public method on it; assert no crash and a sensible default.',
      cues: [
        [
          /\b(nil|(?<!\/dev\/)null|none|undefined|missing|not set|unset)\b.{0,40}\b(panic\w*|crash\w*|throws?|exception|segfault|error)\b/i,
          1.1,
        ],
        [/\b(panic\w*|crash\w*|throws?|exception)\b.{0,40}\b(nil|(?<!\/dev\/)null|none|undefined|missing)\b/i, 1.1],
        [/\b(nil|null) (pointer|dereference|reference)\b|\bnoneType\b|\bcannot read propert/i, 1.3],
        [/\b(panic\w*|crash\w*|segfault)\b/i, 0.5],
      ],
    },
    {
      id: 'boundary-position',
      title: 'The first, last and one-past-the-end positions must be tested, not only the middle',
      description: 'Off-by-one errors hide at the ends of a range, a string or a collection.',
      check:
        'Add cases at the boundaries of every range the change touches: the first and last element, exactly at a limit and one past it, and a single-element input.',
      cues: [
        [/\boff[- ]by[- ]one\b|\bout of (range|bounds)\b|\bindex (out|error)\b|\bindexerror\b/i, 1.5],
        [
          /\blast (element|item|line|char\w*|page|row|record|entry|column|byte|chunk|segment)s?\b|\bfirst (element|item|line|char\w*|row|record|entry|column|byte|chunk|segment)s?\b|\bend of (the )?(range|string|input|file|line)\b/i,
          1,
        ],
        // output cut at a size, or a value held at a ceiling it should pass ("capped at 99.99")
        [
          /\b(truncated|cut off|clipped) (at|after) (about |exactly )?\d+ ?(kb|mb|bytes?|chars?|characters|lines?|items?|rows?|entries)\b|\b(capped|clamped|stuck|limited) at \d/i,
          1,
        ],
        // a count that lands exactly on a limit: a last page that is full
        [/\bexactly (divisible|equal|at|on)\b|\b(an exact|a whole) multiple of\b|\bevenly divisible\b/i, 1],
        // a multipart or a character boundary is not an edge position
        [/\bboundar(y|ies)\b/i, 0.6],
        [/\b(exclusive|inclusive)\b|\bupper bound\b|\blower bound\b|\b24:00\b|\bmidnight\b/i, 0.8],
        [/\b(maximum|minimum|max|min|limit)\b/i, 0.6],
      ],
    },
    {
      id: 'version-ordering',
      title: 'Versions must be compared by their parts, not as text: 1.10 is newer than 1.9',
      description:
        'Versions compared as strings or numbers put 1.10 before 1.9, rank 2.0.0-beta above 2.0.0 or let a range admit a prerelease, and treat 1.2 and 1.2.0 as different.',
      check:
        'Test the comparison and every range check with multi-digit parts (1.9, 1.10), a prerelease beside its release (2.0.0-beta, 2.0.0), build metadata and a missing part (1.2, 1.2.0), and assert the order the versioning scheme defines.',
      cues: [
        // a prerelease or a version range judged, not a release published
        [
          /\bpre-?releases?\b.{0,60}\b(accept\w*|exclud\w*|includ\w*|match\w*|satisf\w*|compar\w*|sort\w*|order\w*|newer|older|greater|lower|higher|less|preced\w*|constraints?|ranges?|checks?)\b|\b(accept\w*|exclud\w*|includ\w*|match\w*|satisf\w*|compar\w*|sort\w*|order\w*|newer|older|greater|lower|higher|preced\w*|constraints?|ranges?)\b.{0,60}\bpre-?releases?\b/i,
          1.2,
        ],
        [
          /\bversion (comparisons?|ordering|sorting|precedence|constraints?)\b|\b(compar\w*|sort\w*|order\w*) (two |the |of )?(semver |semantic )?versions\b|\bversions? (are |is )?(compared|sorted|ordered) (as|like|by) (text|strings?|floats?|numbers?)\b|\bsemver (compar\w*|ordering|sorting|ranges?|constraints?|precedence)\b/i,
          1.2,
        ],
        // "1.10 sorts before 1.9"
        [
          /\b\d+\.10\b.{0,30}\b(before|below|lower than|less than|older than|smaller than)\b.{0,10}\b\d+\.9\b|\b\d+\.9\b.{0,30}\b(after|above|newer than|greater than|higher than|bigger than)\b.{0,10}\b\d+\.10\b/,
          1.2,
        ],
        [/\b\d+\.\d+\.\d+-(alpha|beta|rc|pre)[\w.]*\b/i, 0.5],
      ],
    },
    {
      id: 'numeric-extremes',
      title: 'Zero, negative and fractional numbers must be tested, not only small positive integers',
      description:
        'Arithmetic, formatting and parsing written for small positive integers divide by zero, lose the sign of a negative value, take the wrong remainder or round a fraction wrongly.',
      check:
        'Test the changed computation with zero, a negative value and a fraction, and assert the exact result (sign, remainder, digits) or a clear error.',
      cues: [
        // a number's type or a rounding mode is mentioned in many bugs that are not about extremes
        [/\bprecision\b|\brounding\b|\bfloat(ing point)?\b|\bintegers?\b/i, 0.6],
        [
          /\bnegative (numbers?|values?|inputs?|integers?|ints?|floats?|durations?|amounts?|counts?|sizes?|index|indexes|indices|offsets?|intervals?)\b/i,
          1,
        ],
        [/\bnegative\b/i, 0.5],
        [
          /\bdivi(de|ded|sion) by zero\b|\b(round\w*|modulo|mod) by zero\b|\bzero divisor\b|\b(remainder|modulo)\b/i,
          1.5,
        ],
        [/\bfractions?(al)?\b|\bdecimals?\b/i, 0.5],
        // binary floating point shows through: 0.1 + 0.2, a long run of zeros or nines
        [
          /\b0\.30000000000000004\b|\b\d+\.\d*0{6,}[1-9]\d*\b|\b\d+\.\d*9{6,}\d*\b|\b(float(ing[- ]point)? )?(rounding|precision) (error|errors|issue|problem|bug)s?\b/i,
          1,
        ],
      ],
    },
    {
      id: 'non-finite-numbers',
      title: 'NaN and infinity must be handled on purpose: NaN never equals itself and infinity is no count',
      description:
        'Code written for finite numbers sees NaN as changed on every comparison, formats or converts infinity as if it were a huge count, or fails with an overflow on it.',
      check:
        'Test the changed computation with NaN and with positive and negative infinity, and assert each gives a defined result (unchanged, unknown, refused) or a clear error.',
      cues: [
        [/\bnan\b|\binfinity\b|\bnon-?finite\b|\bis_?nan\b|\bis_?finite\b/i, 1.2],
        // an overflow caused by an infinite value is this lesson's, not the integer limits'
        [/(=|\b(is|be|of|total|value|with)) ?(-|\+)?inf\b|\bfloat\(['"]inf/i, 1.3],
      ],
    },
    {
      id: 'integer-limits',
      title: "Integers at their type's limits must not overflow, wrap or lose their sign",
      description:
        'Arithmetic, conversion and parsing written for small values overflow at the type’s maximum, negate its minimum wrongly, or change a value when converting it to a narrower or signed type.',
      check:
        'Test the changed code with the type’s minimum and maximum, one past them, and a value that does not fit a narrower type, and assert the exact result or a clear overflow error.',
      cues: [
        [/(?<!\bstack )\b(over|under)flow\w*\b/i, 1.2],
        [
          /\b(min(imum)?|max(imum)?|largest|smallest) (u?int\w*|[iu](8|16|32|64|128)|integers?|value of the type|representable)\b|\b(int|u?int\d+|[iu]\d+)::(max|min)\b|\bmax_?safe_?integer\b|\b(max|min)u?int\d*\b|\bsign[- ]extension\b|\bwrap(s|ped|ping)? ?around\b/i,
          1.2,
        ],
        [
          /\blarge (numbers?|values?|integers?|inputs?)\b|\bhuge\b|\bbig ?ints?\b|\b(u?int|[iu])(8|16|32|64|128)\b/i,
          0.6,
        ],
        [
          /\btoo[- ]large (u?int|[iu])\d*\b|\b2\^\d+\b|\b(2147483647|2147483648|4294967295|4294967296|32767|65535|9007199254740991|9223372036854775807)\b|\b(massive|huge|absurdly large|enormous) (durations?|timestamps?|values?|numbers?|offsets?)\b|\b(durations?|timestamps?|values?|numbers?) (is|are) (massive|huge|enormous|absurdly large)\b/i,
          1.2,
        ],
        [
          /\bnarrow(er|ing)? (types?|int\w*|conversions?|width)\b|\b(different|other) widths?\b|\bbecomes? negative\b|\bas (a )?negative\b/i,
          0.8,
        ],
      ],
    },
    {
      id: 'float-text-form',
      title: 'Floating-point numbers must be written in a form that reads back to the same value',
      description:
        'A serializer or formatter writes a float as a long fixed-point string, drops its exponent or sign of zero, or rounds it, so it no longer matches the reference encoder or parses back to the same number.',
      check:
        'Format and parse back very large and very small floats (1e21, 1e-7), negative zero and values needing all their digits, and compare each with the reference encoder of the format and with the original value.',
      cues: [
        [/\b(exponents?|scientific notation|e-notation)\b|\b\d+(\.\d+)?e[+-]?\d+\b/i, 1],
        [
          /\bnegative zero\b|(^|\s)-0(\.0)?\b|\bshortest (round[- ]trip|representation)\b|\bround[- ]trips? (of )?(a )?floats?\b/i,
          1.1,
        ],
        [/\bfloats?\b|\bfloating[- ]point\b|\bdoubles?\b|\bf64\b|\bfloat64\b/i, 0.5],
      ],
    },
    {
      id: 'deterministic-output-order',
      title: 'Output built from a map or a set must come out in a stable order',
      description:
        'Iterating a hash map or a set gives a different order from run to run (or from one version to the next), so serialized output, generated files and test snapshots change though nothing else did.',
      check:
        'Produce the output twice (and under another hash seed or runtime version where the language randomizes it) and assert it is byte-identical, sorting keys or keeping insertion order where the format allows.',
      cues: [
        [
          /\b(unstable|random(ized)?|non-?deterministic|inconsistent|unpredictable|changing) (\w+ )?(order|ordering|key order)\b|\b(map|dict|hash|set) (key |iteration )?order(ing)?\b|\biteration order\b|\bsort(ed)? keys\b|\bdeterministic (output|order(ing)?|serialization)\b|\bsort(ing)? is not stable\b|\bunstable sort\w*\b|\b(in )?a different order on (each|every) run\b/i,
          1.3,
        ],
      ],
    },
    {
      id: 'ipv6-host-forms',
      title: 'Host parsing must be tested with IPv6 addresses, bracketed and with a port',
      description:
        'Code that splits a host from its port at the first colon breaks on an IPv6 address, whose colons are part of the address and which a URL writes in brackets.',
      check:
        'Test the changed parsing or URL building with [::1], [::1]:8080, a full IPv6 address and a zone id, and assert host and port come back separately and the brackets where the format needs them.',
      cues: [
        // an IPv6 literal has colons: a compiler's error code in brackets ("error[E0658]") is none
        [/\bipv6\b|\[::1?\]|\[[0-9a-f]{0,4}(:[0-9a-f]{0,4}){2,}\]/i, 1.3],
        [/\b(host|port|address)\b/i, 0.3],
      ],
    },
    {
      id: 'special-characters-in-input',
      title: 'Input with separators and special characters (spaces, quotes, colons, a lone dash) must survive parsing',
      description:
        'Splitting, quoting and tokenizing written for plain words break on characters that have a meaning of their own.',
      check:
        'Test the parser or formatter with values that contain spaces, quotes, the separator itself, a lone dash, a trailing backslash and non-letter characters, and assert the value comes back unchanged.',
      cues: [
        [
          /\bspecial characters?\b|\b(colons?|semicolons?|commas?|quotes?|brackets?|braces|spaces?|dash(es)?|hyphens?|slash(es)?|dots?|equals sign|percent|ampersand)\b/i,
          0.7,
        ],
        [/"-"|'-'|\blone dash\b|\bdouble dash\b|"--"/i, 1.2],
        [/\b(whitespace|trailing|leading)\b/i, 0.6],
        [/\bescap(e|ed|ing)\b(?! sequence)|\bunescap\w*\b|\bquot(e|ed|ing)\b/i, 0.6],
        [/\b(glob|regex|regular expression|wildcard)s?\b/i, 0.5],
      ],
    },
    {
      id: 'serialized-output-escaping',
      title: 'Keys and values written into JSON, TOML or another text format must be escaped so the output parses back',
      description:
        'A hand-written serializer copies a key or value that holds a quote, a backslash or a control character into the output as is, and the document no longer parses or means something else.',
      check:
        'Serialize keys and values that hold quotes, backslashes, newlines and every control character (U+0000 to U+001F and U+007F), parse the output back with a standard parser and assert it equals the input.',
      cues: [
        [
          /\bescap\w*\b.{0,40}\b(keys?|strings?|values?|names?|output|json|toml|yaml|xml|csv|backslash\w*|quotes?|control char\w*|bindings?)\b|\b(keys?|strings?|values?|names?|backslash\w*|quotes?|control char\w*)\b.{0,20}\b(not|un|wrongly|incorrectly) ?escaped\b/i,
          1.2,
        ],
        [
          /\b(produc\w*|outputs?|outputting|writ(e|es|ing|ten)|emit\w*|generat\w*|serializ\w*)\b.{0,30}\b(invalid|broken|malformed|unparseable|corrupt\w*) (json|yaml|toml|xml|csv|output|documents?)\b/i,
          1.2,
        ],
        [/\bcontrol char\w*\b|\bunescaped\b/i, 0.6],
        [/\bserializ\w*\b|\bstringif\w*\b|\bdump(s|ing|er)?\b|\bencoder\b/i, 0.3],
      ],
    },
    {
      id: 'malformed-input-rejected',
      title: 'Malformed input must be rejected with a clear error, not half-parsed',
      description:
        'A lenient parser accepts input with extra or invalid parts and returns a wrong value instead of failing.',
      check:
        'Feed the parser inputs with extra characters, missing parts and invalid values, and assert each is rejected with an error (or an invalid result) rather than parsed into something plausible.',
      cues: [
        [
          /\bmalformed\b|\binvalid (input|format|dates?|strings?|values?|syntax|json|urls?|numbers?)\b|\bnot returning invalid\b/i,
          1.2,
        ],
        [/\bstrict(ly)? pars\w*|\bpars(e|er|ing)\b.{0,40}\b(accept\w*|allow\w*|invalid|extra|garbage|spaces?)\b/i, 0.9],
        [/\bincorrect(ly)? pars\w*|\bwrong(ly)? pars\w*|\bpars\w* (error|bug|issue)\b/i, 0.8],
      ],
    },
    {
      id: 'non-advancing-loop',
      title: 'A loop or recursion must advance on every input, or it hangs',
      description: 'A parser or walker that does not consume input on some path loops forever or overflows the stack.',
      check:
        'Add a test with the input that made no progress (and a cycle, for graphs and links) under a timeout, and assert it finishes.',
      cues: [
        [
          /\binfinite (loop|recursion)\b|\bstack overflow\b|\bmaximum (call stack|recursion)\b|\brecursion (depth|limit)\b/i,
          1.5,
        ],
        [/\b(cycles?|cyclic|circular|symlink loops?)\b/i, 0.7],
      ],
    },
    {
      id: 'unknown-value',
      title: 'A value outside the known set (an unknown method, key, name or type) must be refused cleanly, not crash',
      description:
        'A lookup that assumes its key is one of the known ones dereferences nothing and panics or throws on anything else.',
      check:
        'Call the changed code with a value it does not know (an unknown method, key, enum name or type) and assert a clear error or a documented fallback, not a crash.',
      cues: [
        [
          /\b(unknown|unsupported|unrecogni[sz]ed|unregistered|undeclared|invalid) (methods?|keys?|names?|types?|values?|commands?|options?|fields?|kinds?|formats?|encodings?)\b/i,
          1.2,
        ],
        [/\bnot (in|found in|part of|present in|registered in|listed in)\b/i, 0.7],
        [/\b(panic\w*|crash\w*|throws?|exception)\b/i, 0.4],
      ],
    },
    {
      id: 'repeated-values',
      title:
        'A key given several times (repeated headers, parameters, flags or fields) must keep every value, or the documented one',
      description:
        'Code that stores one value per key overwrites, merges or double-counts values given more than once.',
      check:
        'Pass the same key twice with different values (and with the same value) and assert the documented result: all values in order, the last one, or a clear error; assert nothing is counted twice.',
      cues: [
        [/\b(repeated|duplicat\w*|multiple (values|headers|occurrences|entries)|double[- ]count\w*)\b/i, 1.1],
        // "called twice" is a repeated call, not a repeated value: it needs a value word beside it
        [/\b(twice|multiple times|more than once|several times)\b/i, 0.7],
        [/\b(headers?|parameters?|params|keys?|flags?|fields?|values?|entries|cookies?)\b/i, 0.3],
      ],
    },
    {
      id: 'anchored-pattern',
      title: 'A pattern must match the whole value where it must, not just a part of it',
      description:
        'An unanchored regular expression or wildcard accepts values that merely contain a match, or matches at the wrong place.',
      check:
        'Test the pattern with values that contain a match at the start, the middle and the end, and with a prefix or suffix added, and assert which are accepted; anchor the expression where the whole value must match.',
      cues: [
        [/\b(regex\w*|regexp|regular expressions?|patterns?|wildcards?|globs?|route matching|matcher)\b/i, 0.6],
        [
          /\b(only (a )?part of|partial(ly)? match\w*|anchor\w*|whole (value|string|path|word)|entire (value|string|path)|at (the )?end of|prefix|suffix|more than \d+)\b/i,
          0.6,
        ],
      ],
    },
    {
      id: 'case-insensitive-names',
      title: 'Names a protocol or platform treats as case-insensitive must match in any case',
      description:
        'Header names, encodings, schemes, hosts and some file names compared case-sensitively miss values written in another case.',
      check:
        'Test each such comparison with the value in lower, upper and mixed case, and assert it matches; compare after normalizing the case rather than with a plain equality.',
      cues: [
        [
          /\bcase[- ]?insensitiv\w*\b|\bcase[- ]?sensitiv\w*\b|\b(upper|lower|mixed)[- ]?case\b|\bcapitali[sz]ation\b/i,
          1.2,
        ],
      ],
    },
    {
      id: 'path-joining',
      title: 'Joining paths and URLs must neither double nor drop a separator',
      description:
        'Concatenating a prefix and a path doubles or loses slashes at the joint, and drops or duplicates a query string.',
      check:
        'Join every combination of a prefix with and without a trailing slash and a path with and without a leading slash (and with a query string), and assert exactly one separator and the query kept once.',
      cues: [
        [
          /\b(double|trailing|leading|duplicate|extra|missing) (slash(es)?|separators?)\b|\b(double|trailing|leading) \/|(?<!:)\/\/(?!\s)/i,
          1,
        ],
        [
          /\bnest(ed|ing)? (routes?|routers?|paths?)\b|\bjoin(ing|ed)? (paths?|urls?)\b|\bprefix(es|ed)?\b|\bmount(ed|ing)?\b/i,
          0.6,
        ],
        [/\bslash(es)?\b|\bquery (strings?|parameters?|params)\b/i, 0.4],
      ],
    },
    {
      id: 'unexpected-input-type',
      title: 'Code that receives values of several types must be tested with each of them',
      description:
        'A function written for strings breaks on a number, a list, bytes or an object it also receives in practice.',
      check:
        'Call the changed code with each type a caller may pass (a string, a number, a list, bytes, an object, a subclass) and assert a correct result or a clear type error.',
      cues: [
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
    },
    {
      id: 'calendar-edge-dates',
      title: 'Date code must be tested on leap days, month ends and year boundaries',
      description:
        'Arithmetic and parsing written for an ordinary mid-month date break on February 29, on the 31st plus a month, on the last day of a year or on week 53.',
      check:
        'Add cases on February 29 of a leap year (and the same date in a common year), on the 29th–31st plus one month, across December 31 to January 1 and in an ISO week 53, and assert the exact resulting date.',
      cues: [
        [/\bleap (years?|days?|seconds?)\b|\bfeb(ruary)? 29\b|\b29(th)? (of )?feb(ruary)?\b|\b\d{4}-02-29\b/i, 1.5],
        // a date before the epoch: a negative timestamp
        [/\bbefore (1970|the (unix )?epoch)\b|\bpre-1970\b|\bnegative (unix )?(timestamps?|epoch)\b/i, 1.2],
        [
          /\b(end|last day) of (the )?(month|year)\b|\bmonth[- ]ends?\b|\byear[- ](end|boundary)\b|\bweek 53\b|\biso weeks?\b|\bweek[- ]of[- ]year\b|\bdays? in (the )?month\b/i,
          1.2,
        ],
        [/\b(31st|30th)\b|\bdecember 31\b|\bjanuary 1\b/i, 0.5],
      ],
    },
  ],
});
