/** The routine kind error-handling (swallowed errors): its cues, routines and lessons. */
import { defineKind } from '../entry.js';

export const errorHandling = defineKind({
  kind: 'error-handling',
  template: {
    label: 'swallowed errors',
    title: 'Test the failure path: errors must reach the caller, not vanish',
    description: 'Errors that are swallowed, ignored or masked by a later error leave callers with silent failures.',
    check:
      'For each changed operation, add a test that forces a dependency to fail and assert that the caller receives the original error, that no later error masks it, and that nothing keeps running as if it had succeeded.',
    why: 'Tests that only exercise success cannot catch a swallowed error.',
    also: 'assert the error that reaches the caller when it fails',
    step: 'Force each dependency to fail and assert the error reaches the caller.',
  },
  facets: [
    {
      name: 'surface',
      cue: /\b(swallow\w*|uncaught|unhandled|propagat\w*|shadow\w*|mask(s|ed|ing)?|silent(ly)?|catch|ignored|lost)\b/i,
    },
    {
      name: 'report',
      cue: /\b(stderr|stdout|exit (codes?|status)|error messages?|messages?|traceback|stack traces?|panics?|crash(es|ed)?|cast)\b/i,
      template: {
        label: 'error messages and exit codes',
        title: 'Assert how errors are reported: type, message, stream and exit status',
        description:
          'An error reported with the wrong type, an unreadable message, on the wrong stream or with the wrong exit status misleads users and scripts.',
        check:
          'For each failure the change can produce, add a test that asserts the error type, a useful message, the output stream (stderr, not stdout) and the exit status or response code, and that the program reports instead of crashing.',
        why: 'A test that only checks that something failed cannot catch an error reported in the wrong form or place.',
        also: 'assert the type, message and stream of the error',
        step: 'Assert error type, message, stream and exit status for each failure.',
      },
    },
  ],
  learnedRule: 'Test how the {p} fails: its errors must reach the caller intact',
  vocabulary: 'error handling exception swallowed uncaught reported',
  textCues: [
    [/\berrors?\b/i, 0.6],
    [/\bexceptions?\b/i, 0.8],
    [/\bthrows?\b|\bthrown\b|\bthrowing\b/i, 0.6],
    [/\bswallow|\buncaught\b|\bunhandled\b|\bpropagat/i, 1.2],
    // one failure that brings the whole process down, or a failure that says nothing
    [
      /\btakes? down (the|our|my) (whole |entire )?(process|server|app|service|worker)\b|\bno (error )?message at all\b|\bprints? nothing and exits?\b|\bexits? (silently|without (a|any) (message|error))\b|\b(says|shows|prints|reports) ['"`]?(done|ok|success\w*|saved|uploaded|complete\w*)\b.{0,40}\bbut\b|\bsomething went wrong\b|\b(real|original|actual|underlying) (error|exception|cause)\b.{0,20}\b(hidden|masked|lost|swallowed)\b|\bwhen (the )?[\w-]+( server)? is (down|unreachable|offline)\b|\b(when|while) offline\b|\bairplane mode\b/i,
      1.2,
    ],
    // a network error the code should classify, retry or report
    [/\beconn(reset|refused|aborted)\b|\betimedout\b|\beai_again\b|\bsocket hang up\b/i, 1.2],
    [/\b(re)?rais(e|es|ed|ing)\b|\btry\/catch\b|\bcatch\b/i, 0.5],
    [/\bpanics?\b|\bcrash(es|ed)?\b/i, 0.5],
    [/\bstderr\b|\bexit (codes?|status)\b|\berror messages?\b/i, 0.9],
    [/\bshadow|\bmask(s|ed|ing)?\b|\bfail(s|ed)? silently\b|\bsilently\b/i, 0.7],
    [/\btraceback\b|\bstack traces?\b|\bnot respond|\bhangs?\b/i, 0.5],
    // the wrong error, or none: "raises KeyError instead of ConfigError", "no rejection, no error event"
    [
      /\b\w*(error|exception)`? instead of (a |an )?`?\w*(error|exception)\b|\bno (rejection|error event|exception (is )?(raised|thrown))\b|\bnever (rejects|settles)\b/i,
      1.2,
    ],
    // a message that does not help: unhelpful, misleading, or without its cause
    [
      /\b(unhelpful|misleading|confusing|cryptic|useless) (error|message|exception)s?\b|\berror (message )?(does ?n[o']t|did ?n[o']t|never) (say|tell|mention|include|show)s?\b|\broot cause\b|\b(original|underlying|inner) (error|exception|cause)\b/i,
      1.2,
    ],
    // a failure that exits as a success
    [/\bexits? (normally|successfully|cleanly|with (status |code )?0)\b|\bexit (code|status) (is |of )?0\b/i, 1.2],
  ],
  lessons: [
    {
      id: 'error-reaches-caller',
      title: 'An error raised in a callback, hook or handler must reach the caller, not vanish',
      description:
        'An error thrown inside a callback, hook or asynchronous step is swallowed or leaves the operation hanging instead of failing it.',
      check:
        'For each hook or callback the change touches, add a test that makes it throw (and reject) and assert the caller receives that error and the operation ends.',
      cues: [
        [
          /\bswallow\w*\b|\buncaught\b|\bunhandled\b|\bsilent(ly)?\b|\bignor\w* (the )?errors?\b|\berrors? (are |is )?(lost|ignored|dropped)\b/i,
          1.3,
        ],
        [/\bpropagat\w*\b|\bnot respond\w*\b|\bnever (called|respond\w*|reject\w*)\b|\brejection\b/i, 1],
        [/\bthrows?\b|\bthrown\b|\bthrowing\b|\berrors?\b/i, 0.3],
        [/\b(hooks?|callbacks?|handlers?|listeners?|middleware)\b/i, 0.3],
      ],
    },
    {
      id: 'error-masked',
      title: 'A cleanup or fallback error must not hide the original error',
      description:
        'When cleanup or a second handler fails, its error replaces the first one, and the caller sees the wrong cause.',
      check:
        'Make the main step and then its cleanup fail in one test and assert the caller receives the main error (with the cleanup error attached or logged, not instead).',
      cues: [
        [
          /\bshadow\w*\b|\bmask\w*\b|\bhid(e|es|den|ing)\b.{0,20}\b(errors?|failures?)\b|\boriginal errors?\b|\boverwrit\w* (the )?errors?\b/i,
          1.4,
        ],
        [
          /\b(cleanup|finally|after|defer\w*|teardown)\b.{0,30}\berrors?\b|\berrors?\b.{0,30}\b(cleanup|finally|teardown)\b/i,
          0.8,
        ],
        [/\b[A-Z]\w*(Error|Exception)\b.{0,60}\b[A-Z]\w*(Error|Exception)\b/, 1.1],
      ],
    },
    {
      id: 'error-output-channel',
      title: 'Errors go to standard error with a failing exit status, never to standard output with 0',
      description:
        'An error printed to standard output, or an exit status of 0 after a failure, breaks pipelines and scripts that rely on them.',
      check:
        'Run the failing command in a test, capture both streams and the exit status, and assert the message is on standard error and the status is non-zero.',
      cues: [
        [/\bstderr\b|\bstandard error\b/i, 1.3],
        // every program writes to stdout: it names the lesson only beside stderr or an exit code
        [/\bstdout\b|\bstandard output\b/i, 0.6],
        [/\bexit (codes?|status)\b|\breturn codes?\b|\bexits? (with )?(0|zero|1|non-?zero)\b/i, 1.3],
      ],
    },
    {
      id: 'error-message-content',
      title: 'An error must render a message that names what failed, even when built with only some of its fields',
      description: 'An error object built without its optional fields prints an empty, wrong or crashing message.',
      check:
        'Create each error type with only its required arguments and with all of them, and assert its string form names the failing input and does not itself raise.',
      cues: [
        [
          /\berror messages?\b|\bmessages? (of|for) (the )?errors?\b|\bstr(ing)? (cast|form|representation|conversion) of\b|\brepr\b|\btostring\b/i,
          1.3,
        ],
        [/\b(exception|error)s? (class|type|object)\b|\bwrong (error|exception)\b/i, 0.7],
        // what the error says: which request or file failed, where the bad input is
        [
          /\b(doesn'?t|does not|never) (say|tell|name|mention|include)s? which\b|\b(errors?|messages?)\b.{0,30}\bhas no (url|path|file ?name|context|line|location)\b/i,
          1.1,
        ],
        [
          /\b(errors?|messages?|diagnostics?)\b.{0,40}\b(column|position|span|line number|offset|error\.path)s?\b.{0,30}\b(wrong|off|incorrect|one before|one after)\b|\bwrong (column|position|span|line number|offset|error\.path)\b/i,
          1.1,
        ],
        [
          /\b(stack traces?|tracebacks?|log(s|ged|ging)?|print(s|ed|ing)?)\b.{0,30}\b(panics?|errors?|exceptions?)\b|\b(panics?|errors?|exceptions?)\b.{0,30}\b(printed|logged)\b|\brecover(y|ed|s)?\b/i,
          1,
        ],
      ],
    },
    {
      id: 'error-contract',
      title:
        "A failure must reach the caller in the API's own error form, never as a crash, a raw runtime error or no error",
      description:
        'On bad input or a failing step the code throws where it should reject, panics where it should return an error, leaks a native TypeError instead of its own error type, or returns no error at all.',
      check:
        'For each failure the change can meet, assert the documented form: the promise rejects, the function returns a non-nil error or raises the library’s own error class, and the process keeps running.',
      cues: [
        [
          /\binstead of (the )?(\w+ )?(promise |call |request )?(rejecting|failing|returning an? (\w+ )?error|raising|throwing|an? (\w+ )?(error|exception))\b/i,
          1.3,
        ],
        [/\breturns? (a )?(nil|no|null|an empty) error\b|\bno error (is )?returned\b|\berr(or)? (is|==) nil\b/i, 1.3],
        [
          /\b(its|their|our) own (error|exception)s?\b|\b(native|raw|bare|built-?in) (type ?error|errors?|exceptions?)\b/i,
          1.2,
        ],
        [
          /\b(friendlier|catchable|proper|meaningful) (errors?|exceptions?|failures?)\b|\bcan('t| ?not) (catch|distinguish)\b|\btell\b.{0,40}\bapart\b/i,
          0.8,
        ],
        [/\b(rather|other) than (a |an )?(panic|crash)\b|\bthan a (panic|crash)\b/i, 1],
        [
          /\binstead of (panicking|crashing|aborting|unwrapping)\b|\b(return|propagate)s? (an? )?errors? instead\b/i,
          1.3,
        ],
        // the error the reporter expected, by its class name, or one they can handle
        [/\binstead of (an? |the |its )?`?\w*(error|exception)`?(?! (message|text|line))\b/i, 1.3],
        [
          /\b(need|want|expect(ed)?|get) (an? |some |the )?(\w+ )?`?(error|exception)`?s? (value )?(that )?(i|we) can (report|handle|catch|return|check)\b/i,
          1.2,
        ],
        [/\bcalled `?(Result|Option)::unwrap\(\)`? on an? `?(Err|None)\b/i, 1.3],
        [/\b(becomes|turns into|comes back as|answers?) (an? )?(http )?500\b|\b500 instead of (an? )?4\d\d\b/i, 1],
        [
          /\b(process|worker|server|program|app) (exits|crashes|dies|goes down)\b|\btakes? (the )?(worker|process|server) down\b/i,
          0.8,
        ],
      ],
    },
    {
      id: 'error-classification',
      title: 'Classify errors by their kind or code, not by their text, and decide which are benign',
      description:
        'Errors that are expected (not found, permission denied, broken pipe) are reported as failures, or real failures are ignored, because the check looks at the wrong property.',
      check:
        'Trigger each class of error the code can meet (missing file, no permission, interrupted, not a directory) and assert which are reported and which are skipped.',
      cues: [
        // a reader gone away or a call interrupted: a class of error, benign where output is piped
        [/\bepipe\b|\bbroken pipe\b|\beintr\b|\binterrupted system call\b/i, 1.4],
        [
          /\b(io|os|system) errors?\b|\berrno\b|\benoent\b|\beacces\b|\beperm\b|\bpermission denied\b|\bnot found errors?\b|\berror (kinds?|types?|codes?)\b/i,
          1.2,
        ],
        [/\bbased on (the )?(type|kind|code)\b|\bbenign\b|\bexpected errors?\b/i, 0.8],
        // the check that should see the error's kind: errors.Is/As, a type assertion, isinstance, is_eof()
        [
          /\berrors\.(is|as)\(|\berr\.\(\*?[\w.]+\)|\bisinstance\(\s*\w+,\s*\w*(error|exception)\b|\bis_eof\(\)|\.timeout\(\)/i,
          1.3,
        ],
        // the kind of a wrapped error, or one from another realm, is read through its chain, not instanceof
        [
          /\berror chains?\b|\bunwrap(s|ped|ping)? (the )?errors?\b|\berrors\.(is|as)\b|\bwrapped errors?\b|\binstanceof\b/i,
          1.2,
        ],
      ],
    },
  ],
});
