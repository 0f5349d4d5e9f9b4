/** The routine kind config-env (configuration sources): its cues, routines and lessons. */
import { defineKind } from '../entry.js';

export const configEnv = defineKind({
  kind: 'config-env',
  template: {
    label: 'configuration sources',
    title: 'Test every source of a setting and their precedence',
    description:
      'Settings come from defaults, config files, environment variables and command-line flags, and their precedence breaks in the combinations nobody tested.',
    check:
      'Add tests that set the option through each source (unset, default, config file, environment variable, flag, empty value) and in conflicting combinations, asserting the documented precedence and the resulting value.',
    why: 'A test of the option as users actually set it catches a wrong default or precedence.',
    also: 'set the option through each source in that test',
    step: 'Test the option unset, by default, by file, by environment and by flag.',
  },
  facets: [
    {
      name: 'precedence',
      cue: /\b(env(ironment)?( var(iable)?s?)?|precedence|config(uration)?( files?)?|settings?|dotenv|defaults?)\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/,
    },
    {
      name: 'parsing',
      cue: /\b(flags?|options?|argument parsing|arguments?|parameters?|values?|short options?)\b|(^|\s)--?[a-z][\w-]*/i,
      template: {
        label: 'option values',
        title: 'Test how each option value is parsed, including its unusual forms',
        description:
          'Option parsing breaks on short and long forms, repeated flags, missing or empty values and values that look like flags.',
        check:
          'Add tests for each option in its short and long form, with an equals sign and with a separate value, repeated, with an empty or missing value and with out-of-range values, and assert the parsed value or a clear usage error.',
        why: 'Tests that pass options only in their usual form cannot catch such a parsing bug.',
        also: 'pass the option in each of its forms in that test',
        step: 'Test each option in short and long form, repeated, empty and missing.',
      },
    },
  ],
  learnedRule: 'Test every source of the {p} setting and their precedence',
  vocabulary: 'configuration options flags environment variables defaults',
  textCues: [
    [/\bconfig(uration|s)?\b|\bsettings?\b|\bprecedence\b/i, 1],
    [/\boptions?\b|\bflags?\b/i, 0.5],
    [/\benv( var(iable)?s?)?\b|\benvironment var(iable)?s?\b|\bdotenv\b/i, 1],
    // a runtime or test "environment" is as often meant as a configured one
    [/\benvironments?\b/i, 0.5],
    [/\bdefaults?\b/i, 0.8],
    // "respect the option", "honor the setting": a configured value was ignored
    [/\b(respect|honou?r)(s|ed|ing)?\b/i, 0.5],
    [/(^|\s)--?[a-z][\w-]*/i, 0.6],
    [/\bargument parsing\b|\bparameters?\b|\bcli\b/i, 0.4],
    [
      /(^|\s)~\/\.[\w.-]+|\b(home|global|user|project|repo|local)[- ](level )?(config|settings|file)\b|\brc file\b/i,
      0.8,
    ],
  ],
  casedCues: [
    [/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/, 0.8],
    // a variable set for one command: `PORT=8080 npm start`
    [/(^|[\s`])[A-Z][A-Z0-9_]{2,}=\S*/, 0.8],
  ],
  files: {
    evidence: 'configuration or option parsing',
    cues: [[/(config|settings|options|flags?|env|args?)[\w-]*\.\w+$|(^|\/)cli\.\w+$/i, 0.3]],
  },
  lessons: [
    {
      id: 'environment-variable-states',
      title: 'An environment variable must be tested set, unset and set to an empty string',
      description:
        'Code that checks an environment variable by its truthiness or presence treats an empty value, or an unset one, the wrong way.',
      check:
        'Test each environment variable the change reads in three states (unset, set to an empty string, set to a value) and assert the documented behaviour for each.',
      cues: [
        [/\benv(ironment)? ?var(iable)?s?\b|\benv\b|\bdotenv\b/i, 1],
        [/\benvironment\b/i, 0.6],
        [/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/, 0.6],
      ],
    },
    {
      id: 'value-source-precedence',
      title: 'When a value can come from several sources, test their precedence',
      description:
        'A value given on the command line, in the environment, in a config file and as a default must win in a documented order, and a refactor silently changes it.',
      check:
        'Set the same setting in every source at once (flag, environment, config file, default) and assert the documented winner, then remove sources one at a time.',
      cues: [
        [/\bprecedence\b|\bpriority\b|\boverrid\w*\b|\btakes? over\b/i, 1.2],
        [/\b(config(uration)?( files?)?|settings?|environment|flags?|options?|defaults?)\b/i, 0.3],
      ],
    },
    {
      id: 'default-applies-when-absent',
      title: 'A default must apply exactly when no value was given, and keep the value’s shape',
      description:
        'A default that replaces a given value, or a shorthand (a number for an object) merged without normalizing, gives callers a setting they did not ask for.',
      check:
        'Test each option with no value, with the shorthand form and with the full form, and assert the effective setting; check the default is not shared between calls.',
      cues: [
        [/\bdefaults?\b/i, 0.8],
        [/\b(options?|settings?|config\w*|parameters?|arguments?)\b/i, 0.4],
        [/\bshorthand\b|\bwhen specifying\b|\bmerg\w*\b/i, 0.5],
      ],
    },
    {
      id: 'flag-parsing',
      title: 'Command-line parsing must be tested with every form of a flag: short, long, combined, repeated',
      description:
        'A flag parser handles the usual form and breaks on a short alias, a value attached with =, combined short flags, a repeated flag or a value that looks like a flag.',
      check:
        'Test each changed flag as --name value, --name=value, -n value, -nvalue, combined with other short flags, repeated, and with a value starting with a dash.',
      cues: [
        [
          /\bflags?\b|\bshort options?\b|\blong options?\b|\bcommand[- ]line\b|\bargv\b|\bargument parsing\b|\bargs parsing\b/i,
          0.9,
        ],
        [/(^|[\s`'"(/])-{1,2}[a-z][\w-]*\b/i, 0.6],
        [/\b(hyphen|dash)(es)?\b|\bvalues? (that )?(start|begin)\w* with\b/i, 0.5],
        [/\b(option|argument)s? terminator\b|\bend of options\b/i, 1],
        [/\bpars(e|er|ing)\b|\barguments?\b|\boptions?\b|\bsubcommands?\b/i, 0.4],
      ],
    },
    {
      id: 'hermetic-tests',
      title: 'Tests must not depend on, or leak, ambient state (environment, working directory, globals)',
      description:
        'A test or test helper that reads or changes the environment, working directory or global settings passes alone and fails, or breaks others, in another order or machine.',
      check:
        'Run the suite in random order and in a clean environment, and make each test helper save and restore what it changes (environment, working directory, global settings).',
      cues: [
        [
          /\btest (runner|helper|harness|isolation)\b|\bisolat\w*\b|\bhermetic\b|\bambient\b|\bworking directory\b|\bcwd\b/i,
          1,
        ],
        [/\b(restor\w*|sav\w*|leak\w*)\b.{0,20}\b(env\w*|state|settings?|globals?)\b/i, 0.8],
        // how the dependence shows: a shuffled order, another region, locale or time zone
        [
          /\b(test )?shuffl\w*\b|\brandom (test )?order\b|\b(region|locale|time ?zone|machine)[- ]dependent\b|\bdepend\w* on (the )?(test )?(order|region|locale|time ?zone|machine)\b/i,
          1,
        ],
      ],
    },
    {
      id: 'nested-merge',
      title: 'Merging settings must merge nested levels, not replace them, and explicit keys must win',
      description:
        'A partial update or a merge of nested settings replaces a whole nested object, overwrites keys written explicitly, or skips a key whose current value is null.',
      check:
        'Merge a partial update into nested settings, a key into a null target and a merge key under explicit keys, and assert every untouched nested key survives and the explicit value wins.',
      cues: [
        [
          /\bmerg(e|es|ed|ing)\b.{0,40}\b(nested|deep|nil|null|target|mappings?|objects?|propert\w*|tags?)\b|\bdeep[- ]?merg\w*\b|\bmerge keys?\b|\b(instead of|rather than) (merg\w+|replac\w+)\b|\b(wipes|replaces) the (other|rest|whole)\b/i,
          1.3,
        ],
      ],
    },
    {
      id: 'option-honoured-everywhere',
      title: 'An option must be honoured on every path that can take it, not only the main one',
      description:
        'A setting (a disable switch, a target directory, an HTTPS-only rule, a timeout) is applied on the main call but not in the iterator, async, redirect, filter or cleanup path, where it is silently ignored.',
      check:
        'For each option the change touches, list every entry point and path that can run with it (sync and async, decorator and iterator, first request and redirect, interactive and filter mode) and assert the option’s effect on each.',
      cues: [
        [
          /\b(respect|honou?r|appl(y|ies|ied))(s|ed|ing)? (the |an? )?`?[\w.=-]+`? (option|flag|setting|kwarg|keyword|parameter|argument)?\b.{0,20}\b(when|in|on|for|during|while) (\w+ )?(redirect\w*|iterat\w*|filter\w*|async|streaming|retr\w*|mode|path|forms?)\b/i,
          1.4,
        ],
        [
          /\b(ignored|not (applied|respected|honou?red)) (in|on|for|when|during) (the )?(\w+ )?(mode|path|form|redirects?|iterators?|async|filter)\b|\b(in|on|for) every (entry point|path|code path|form)\b/i,
          1.3,
        ],
      ],
    },
  ],
});
