/** The routine kind encoding-locale (time zones and DST): its cues, routines and lessons. */
import { defineKind } from '../entry.js';

/**
 * Daylight saving time is written DST; a lower-case dst is most often a destination (`src`, `/dst`),
 * unless a commit subject's lower case names it as a transition or a moment.
 */
const LOWER_CASE_DST =
  /\bdst (time ?zones?|times?|transitions?|changes?|switch\w*|bugs?|issues?|offsets?|boundar\w*|gaps?|handling|rules?|shifts?)\b|\b(around|across|during|over|after|before|on) (the )?dst\b/;

/**
 * Text decoded with the wrong charset: UTF-8 read as Latin-1 or Windows-1252, U+FFFD, or a run of
 * question marks or boxes in the characters' place ("arrives as ?????", "Party ??", "become boxes").
 */
export const MOJIBAKE =
  /Ã[\u00a0-\u00bf]|â€[\u2122\u0153\u201c\u201d\u2018\u2019\u2013\u2014"]|\uFFFD|\b(as|shows?|becomes?|displays?|prints?|into|with) ["'“]?\w*\?{2,}|["'“][^"'”\n?]{1,30}\?{2,}["'”]|\b(become|becomes|show up as|shows up as|rendered as|render as|appear as|appears as) (empty )?(boxes|squares|tofu)\b/;

/** Text in a script other than Latin, told by its language ("a Chinese name") */
const OTHER_SCRIPT =
  /\b(chinese|japanese|korean|cjk|arabic|hebrew|cyrillic|greek|thai|hindi|devanagari) (names?|text|characters?|letters?|words?|input|file ?names?)\b/i;

export const encodingLocale = defineKind({
  kind: 'encoding-locale',
  template: {
    label: 'time zones and DST',
    title: 'Run date and time tests in several time zones and across DST changes',
    description:
      "Date code can be right in the author's time zone and wrong in another one, at a DST change or near midnight UTC.",
    check:
      'Run the affected tests with the process time zone set far from UTC on both sides (such as UTC+13 and UTC-10), with dates on both sides of a DST change and near midnight, and compare instants rather than formatted strings.',
    why: "Such bugs pass every test run in the author's own zone and fail for users elsewhere.",
    also: 'repeat it in another time zone and across a DST change',
    step: 'Run the tests again under other time zones and across a DST change.',
  },
  facets: [
    {
      name: 'time',
      cue: /\b(time ?zones?|tz|dst|daylight[- ]saving|utc|gmt|offsets?|dates?|midnight|calendar)\b|[+-]\d{2}:?\d{2}\b/i,
    },
    {
      name: 'text',
      cue: /\b(unicode|utf-?(8|16|32)|charsets?|emoji|non-ascii|ascii|(en|de)cod(e|es|ed|ing|er)|bytes?|line[- ]endings?|crlf|bom)\b/i,
      template: {
        label: 'text encodings',
        title: 'Test text handling with multi-byte characters and other encodings',
        description:
          'Code that counts, slices or decodes text can be right for ASCII and wrong for multi-byte characters, another encoding or other line endings.',
        check:
          'Add test cases with non-ASCII and multi-byte text (accents, CJK, emoji), invalid byte sequences and CRLF line endings, and assert on lengths in bytes and in characters and on the exact decoded text.',
        why: 'ASCII-only tests pass before and after such a fix; one multi-byte case tells them apart.',
        also: 'repeat it with multi-byte text',
        step: 'Add test cases with multi-byte text, invalid bytes and other line endings.',
      },
    },
    {
      name: 'locale',
      cue: /\b(locales?|i18n|l10n|translations?|intl)\b/i,
      template: {
        label: 'locales',
        title: 'Run locale-dependent code under more than one locale',
        description:
          'Formatting, sorting and parsing that depend on the locale can be right in English and wrong in other locales.',
        check:
          'Run the affected tests under at least one non-English locale with different number, date and sorting rules, and assert on the localised output rather than on an English string.',
        why: "A test run only in the author's locale cannot catch such a bug.",
        also: 'repeat it under another locale',
        step: 'Run the tests under a non-English locale.',
      },
    },
  ],
  learnedRule: 'Test the {p} under other encodings, locales and time zones',
  vocabulary: 'encoding unicode utf-8 time zone dst locale date',
  textCues: [
    // a letter with a mark, which search, sorting and comparison must treat as it is written
    [/\baccent(s|ed)?\b|\bdiacritics?\b|\bumlauts?\b/i, 1],
    // a codec's own error, named as one word
    [/\bunicode(de|en)codeerror\b|\bcodec can'?t (de|en)code\b|\binvalid (start|continuation) byte\b/i, 1.3],
    // UTF-8 read as Latin-1 or Windows-1252 ("Ã©" for "é", "â€™" for "’"), or the replacement character
    [MOJIBAKE, 1.3],
    [/\bunicode\b|\butf-?(8|16|32)\b|\bcharsets?\b|\bemoji\b|\bnon-ascii\b|\bascii\b/i, 1],
    [OTHER_SCRIPT, 1],
    [/\b(en|de)cod(e|es|ed|ing|er)\b/i, 0.5],
    [/\bline[- ]endings?\b|\bcrlf\b|\bbom\b/i, 1],
    [
      /\b(a|one) (day|hour) (early|late|behind|ahead|off)\b|\bcr-at-eol\b|\b(every|each) line\b.{0,40}\b(changed|modified)\b|\bwhole file\b.{0,30}\b(changed|modified)\b|\bdecimal (comma|separator|point)\b|\bcomma for decimals\b|\bthousands? separator\b|\b(phone|device|system|browser|os) language\b|\$'\\r'|\\r: command not found/i,
      1.2,
    ],
    [/\btime ?zones?\b|\btz\b|\bdaylight[- ]saving/i, 1.2],
    [/\bDST\b/, 1.2],
    [LOWER_CASE_DST, 1.2],
    [/\butc\b|\bgmt\b|(^|\s)[+-]\d{2}:\d{2}\b|\b(utc|gmt)[+-]\d{1,2}/i, 1],
    [/\blocales?\b|\bi18n\b|\bl10n\b|\btranslations?\b|\bintl\b/i, 1],
    [/\bbytes?\b/i, 0.4],
    // a time of day, not a count ("every time", "3 times"), a duration ("a long time", "load time") or a timeout
    [
      /\bdates?\b|(?<!\b(?:every|each|any|some|same|first|last|next|one|two|three|four|five|many|several|multiple|\d+|a|at|long|short|run|build|load|compile|response|wait|execution|start-?up|boot|round-trip) )\btimes?\b(?! ?outs?\b)/i,
      0.3,
    ],
    // a byte order mark, UTF-16 read as bytes, a multi-byte character cut, a locale setting
    [
      /\\ufeff|\bbyte order mark\b|\bchar(acter)? boundary\b|\\x00|\bnull bytes\b|\bturkish\b|\blc_(all|numeric|time|ctype|collate)\b/i,
      1.3,
    ],
    // Turkish dotted and dotless i; a locale's name (de_DE, pt_BR)
    [/[İı]|\b[a-z]{2}_[A-Z]{2}\b/, 1.3],
  ],
  files: {
    evidence: 'locale or time zone data',
    cues: [[/(^|\/)(locales?|i18n|l10n|tz|timezones?)(\/|$)|timezone/i, 0.8]],
  },
  lessons: [
    {
      id: 'declared-charset',
      title: 'Text must be decoded with the charset its source declares, not an assumed one',
      description:
        'A body, file or header declared as Latin-1, Shift JIS or UTF-16 is decoded as UTF-8 (or the other way round), and every non-ASCII character comes out garbled.',
      check:
        'Feed the changed decoding a body or file declared in a charset other than UTF-8 (and one declaring none), and assert the text comes out exactly, using the declared charset and a documented fallback.',
      cues: [
        [/\bcharset=|\bcontent-type\b.{0,40}\bcharset\b/i, 1.2],
        [/\b(latin-?1|iso-8859-\d+|shift[_ -]jis|windows-125\d|cp125\d|gbk|euc-(jp|kr))\b/i, 1.2],
        [/\b(declared|specified|detected|wrong) (charset|encoding)\b|\b(charset|encoding) detection\b/i, 1],
      ],
    },
    {
      id: 'unicode-normalization',
      title: 'Text compared or used as a key must be compared in one Unicode normalization form',
      description:
        'The same accented name arrives composed from one source and decomposed from another (macOS file names, input methods), so equal strings compare unequal and lookups miss.',
      check:
        'Compare, look up and deduplicate the changed strings with both the composed (NFC) and decomposed (NFD) forms of an accented name, and assert they are treated as the same.',
      cues: [
        [
          /\b(nfc|nfd|nfkc|nfkd)\b|\bunicode normali[sz]\w*\b|\bnormali[sz]\w* form\b|\b(composed|decomposed|combining) (form|characters?|accents?|marks?)\b/i,
          1.5,
        ],
      ],
    },
    {
      id: 'percent-encoding',
      title: 'URL parts must be percent-encoded exactly once, and decoded exactly once',
      description:
        'A path, query or fragment built from text is sent unencoded, encoded twice or decoded twice, so spaces, slashes, plus signs and non-ASCII characters reach the other side changed.',
      check:
        'Build and parse the changed URLs with a space, a plus sign, a slash, a percent sign, an already-encoded %2F and a non-ASCII character in each part, and assert the exact bytes sent and the value read back.',
      cues: [
        [
          /\bpercent[- ]?(en|de)cod\w*\b|\burl[- ]?(en|de)cod\w*\b|\b(en|de)codeuri(component)?\b|\bdouble[- ](en|de)cod\w*\b|%2[0fb]\b|%25\b/i,
          1.3,
        ],
        [
          /\b(query|path|url|uri|fragment)\b.{0,30}\b(encod\w*|escap\w*|unescap\w*)\b|\b(encod\w*|escap\w*)\b.{0,30}\b(query|path|url|uri|fragment)\b/i,
          0.8,
        ],
      ],
    },
    {
      id: 'display-width',
      after: 'open-redirect',
      title: 'Text width on screen is not its length, so test alignment with wide characters, tabs and escape codes',
      description:
        'Padding, wrapping and alignment computed from string length break on wide characters, tabs, combining marks and invisible escape codes.',
      check:
        'Render the changed output with CJK and emoji text, tabs, combining accents and ANSI colour codes, and assert the columns line up and lines wrap at the right width.',
      cues: [
        [/\b(display )?width\b|\balign\w*\b|\bwrap(ping|ped|s)?\b|\bpadding\b|\bcolumns?\b/i, 0.6],
        [
          /\b(caret notation|control char\w*|escape codes?|ansi|colou?rs?|styles?|emoji|cjk|wide char\w*|tabs?|combining)\b/i,
          0.6,
        ],
      ],
    },
    {
      id: 'time-zone-offset',
      title: 'Date code must be tested in time zones far from UTC, on both sides',
      description:
        'Date arithmetic and formatting can be right in the author’s time zone and wrong for an offset of the other sign or more than a few hours.',
      check:
        'Run the date tests with the process time zone set to a large positive and a large negative offset (UTC+13, UTC-10) and compare instants, not formatted strings.',
      cues: [
        [/\btime ?zones?\b|\btz\b|\btimezone\w*\b/i, 1.3],
        [
          /\butc\b|\bgmt\w*\b|(^|\s)[+-]\d{2}:\d{2}\b|\b(utc|gmt)[+-]\d{1,2}(:?\d{2})?\b|\boffsets?\b.{0,20}\b(sign|hours?|zone)\b/i,
          1,
        ],
        [/\biana\b|\bzone (names?|ids?)\b|\boffsets?\b/i, 0.7],
        [/\betc\/(gmt|utc|universal|zulu)\S*|\b(america|europe|asia|africa|australia|pacific|atlantic)\/[a-z]\w*/i, 1],
        [/\blocal time\b|\bdates?\b.{0,30}\b(shift\w*|off by|wrong day|previous day|next day)\b/i, 0.8],
      ],
    },
    {
      id: 'dst-transition',
      title: 'Date arithmetic must be tested across a daylight-saving change',
      description:
        'Adding days or comparing dates across a DST change gains or loses an hour and lands on the wrong day.',
      check:
        'Add cases that add, subtract and compare dates on both sides of a spring-forward and a fall-back transition, in a time zone that has DST.',
      cues: [
        [/\bDST\b/, 1.6],
        [LOWER_CASE_DST, 1.6],
        [/\bdaylight[- ]saving\w*\b|\bsummer ?time\b|\bspring forward\b|\bfall back\b/i, 1.6],
      ],
    },
    {
      id: 'locale-dependent-output',
      title: 'Locale-dependent output must be tested under a locale other than English',
      description:
        'Formatting, sorting and parsing that depend on the locale are right in English and wrong elsewhere.',
      check:
        'Run the affected tests under at least one non-English locale with other number, date and ordering rules, and assert the localized result.',
      cues: [
        [/\blocales?\b|\bi18n\b|\bl10n\b|\bintl\b|\blocali[sz]\w*\b/i, 1.3],
        [/\btranslations?\b/i, 0.8],
        // an order of words that a language, not the code points, decides
        [
          /\b(sort\w*|order\w*|collat\w*|alphabeti\w*)\b.{0,40}\b(accent\w*|diacritic\w*|umlauts?|non-ascii|[\u00c0-\u024f]\b)|\b(accent\w*|diacritic\w*|umlauts?)\b.{0,40}\b(sort\w*|order\w*|collat\w*|alphabeti\w*)\b/i,
          1.2,
        ],
        [/\b(week ?days?|month names?|plural\w*|ordinals?|first day of (the )?week)\b/i, 0.8],
      ],
    },
    {
      id: 'bytes-versus-characters',
      title: 'A length in bytes is not a length in characters, so test it with multi-byte text',
      description:
        'Code that counts or slices text by characters where bytes are meant (or the reverse) is right for ASCII and wrong for multi-byte text.',
      check:
        'Test with multi-byte text (accents, CJK, emoji) and assert byte lengths (headers, buffers, offsets) and character lengths (display, truncation) separately.',
      cues: [
        [/\bcontent[- ]length\b|\bbyte (length|count|size|offset)s?\b|\b(multi[- ]?byte|wide) char\w*\b/i, 1.4],
        [/\bchar(acter)? boundar(y|ies)\b|\b(string|str) slicing\b|\bslic\w* (a |the )?(string|str)\b/i, 1.2],
        [/\butf-?8\b|\bcharset\b/i, 0.8],
        [/\b(length|width|truncat\w*|slic\w*|column\w*)\b.{0,30}\b(unicode|emoji|cjk|utf-?8|characters)\b/i, 1],
      ],
    },
    {
      id: 'text-encoding-round-trip',
      title: 'Non-ASCII text and bytes must round-trip through every read, write and decode',
      description:
        'Text written, read or decoded with the wrong or a default encoding garbles non-ASCII characters or fails on bytes that are not valid text.',
      check:
        'Write and read back text with accents, emoji and an invalid byte sequence through each changed path (files, streams, headers, URLs, terminals) and assert the exact text or a clear decoding error.',
      cues: [
        [/\bunicode\b|\bnon-?ascii\b|\bemoji\b|\baccent\w*\b|\blatin-?1\b|\biso-8859\b/i, 1.1],
        [OTHER_SCRIPT, 1.1],
        [/\binvalid[- ]?(utf-?8|unicode)\b|\bnon-?utf-?8\b|\bundecodable\b|\bnot valid utf-?8\b/i, 1.2],
        // "decoding" alone is as often a parser's or a serializer's word as a text encoding's
        [/\b(en|de)cod(e|es|ed|ing|er|ers)\b/i, 0.5],
        [
          /\b(text|strings?|characters?|utf-?\d+|charsets?|urls?|uris?|paths?|headers?|file ?names?|location)\b.{0,25}\b(en|de)cod\w*|\b(en|de)cod\w*.{0,25}\b(text|strings?|characters?|utf-?\d+|charsets?|urls?|uris?|headers?|file ?names?)\b/i,
          0.6,
        ],
        [/\bbytes?\b.{0,20}\b(text|strings?|str)\b|\b(text|str) (and|vs|or) bytes\b|\bbinary\b/i, 0.7],
        [/\bmojibake\b|\bgarbled\b|\bpercent[- ]encod\w*\b|\burl[- ]?encod\w*\b/i, 1.2],
        [MOJIBAKE, 1.2],
      ],
    },
    {
      id: 'byte-order-mark',
      title: 'Decoded text must tolerate a leading byte order mark (BOM) and either UTF-16 byte order',
      description:
        'A file or response that starts with a byte order mark, or is UTF-16 in the other byte order, decodes to text with a stray first character or to garbage, and the parser then rejects it.',
      check:
        'Read the same document with and without a UTF-8 BOM, and as UTF-16 in little- and big-endian order with its BOM, through each changed reader or parser, and assert the same parsed value every time.',
      cues: [
        [/\bbom\b|\bbyte[- ]order[- ]marks?\b|\\ufeff\b|\bu\+feff\b|\bzero[- ]width no[- ]break space\b/i, 1.5],
        [/\butf-?16\b|\butf-?32\b|\bucs-?2\b/i, 1],
        [/\b(le|be|little[- ]endian|big[- ]endian|byte order)\b/i, 0.3],
      ],
    },
    {
      id: 'line-endings',
      title: 'Text must be tested with CRLF and CR line endings, not only LF',
      description:
        'Code that splits, matches or counts lines on LF alone breaks on files written on Windows or old Macs.',
      check:
        'Add cases with CRLF, lone CR and a missing final newline to every line-based reader or matcher the change touches.',
      cues: [
        [/\bcrlf\b|\bline[- ]?endings?\b|\bline[- ]?terminators?\b|\\r\\n|\bcarriage returns?\b|\bnewlines?\b/i, 1.4],
      ],
    },
  ],
});
