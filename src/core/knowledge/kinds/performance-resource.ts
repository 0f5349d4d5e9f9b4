/** The routine kind performance-resource (leaks and resource cleanup): its cues, routines and lessons. */
import { defineKind } from '../entry.js';

/** Slowness as a reporter measures it: "takes 80 seconds", "takes forever", "10x slower". */
const SLOWNESS_MEASURED =
  /\btakes? (over |about |around |almost |nearly |roughly |more than )?~? ?\d+(\.\d+)? ?(s|secs?|seconds?|mins?|minutes?|ms|milliseconds?|hours?)\b|\btakes? (forever|ages)\b|\b\d+(\.\d+)? ?(x|×|times) slower\b|\bslower than\b|\b(doubles|triples|quadruples) the (time|runtime|duration)\b/i;

/** Memory measured over time: a size after some uptime or requests, or what it starts at. */
export const MEMORY_MEASURED =
  /\b\d+(\.\d+)? ?(gb|mb|gib|mib)\b.{0,40}\b(after|within) (a|an|one|\d+|a few|several) (days?|hours?|weeks?|minutes?|requests?|runs?)\b|\bstarts? (at|with|around) \d+(\.\d+)? ?(gb|mb|gib|mib)\b/i;

/**
 * A leak of memory or handles: not a secret that leaks ("the token leaks", "leaks the password",
 * "leaks into the log"), which is the security kind's (SECRET_EXPOSED).
 */
const SECRET_WORD = String.raw`(?:tokens?|passwords?|secrets?|keys?|credentials?|cookies?|headers?)`;
const RESOURCE_LEAK = new RegExp(
  String.raw`(?<!\b${SECRET_WORD} )\bleak\w*\b(?! (?:the |our |my |your |a |an |any )?(?:api |auth |access |session |secret )?${SECRET_WORD}\b)(?! (?:in)?to (?:the )?(?:debug |error |access )?(?:logs?|output|console|urls?)\b)`,
  'i',
);

export const performanceResource = defineKind({
  kind: 'performance-resource',
  template: {
    label: 'leaks and resource cleanup',
    title: 'Assert that resources are released after use and on every early exit',
    description:
      'Listeners, handles, processes and memory that are not released leak slowly and surface only under load or in long runs.',
    check:
      'Add a test that counts listeners, open handles or child processes before and after the operation, also when it fails or is aborted, and assert they return to the starting value; bound hot paths with a simple budget in a benchmark.',
    why: 'A leak shows as a count that grows with every call, which such a test catches at once.',
    also: 'check that listeners and handles are released afterwards',
    step: 'Count listeners, handles and processes before and after, including on failure and abort.',
  },
  facets: [
    {
      name: 'leak',
      cue: /\b(leak(s|ed|ing)?|listeners?|clean ?up|cleaned up|dispos(e|al)|clos(e|es|ing)|file descriptors?|handles?|processes|zombies?|unsubscrib\w*|memory)\b/i,
    },
    {
      name: 'slow',
      cue: /\b(slow(ness)?|perf(ormance)?|quadratic|cpu|throttl\w*|cach(e|es|ing)|latency|benchmarks?)\b/i,
      template: {
        label: 'slow paths and large inputs',
        title: 'Put a budget on the hot path and measure it',
        description:
          'Work that grows faster than its input, or is repeated needlessly, stays invisible with small test data.',
        check:
          'Add a benchmark or a test with realistically large input for the changed path, with a generous but fixed budget for time, memory or the number of processes or calls, and run it in CI.',
        why: 'Small test inputs pass before and after such a fix; a sized input with a budget tells them apart.',
        also: 'run it with a large input and a budget',
        step: 'Add a benchmark with a large input and a fixed budget.',
      },
    },
  ],
  learnedRule: 'Check that the {p} releases what it holds under repeated use',
  vocabulary: 'leak cleanup listeners resources performance memory',
  textCues: [
    [RESOURCE_LEAK, 1.2],
    [
      /\bheap (dump|snapshot)\b|\bgrows? (by )?(~|about |around )?\d+ ?(kb|mb|gb)\b|\bkernel kills?\b|\boom[- ]killer\b|\bdefunct\b|\bzombie( process(es)?| children)?\b/i,
      1.3,
    ],
    // an input told by its size: a file or a body of gigabytes
    [
      /\b\d+(\.\d+)? ?(gb|mb|gib|mib)\b (json |csv |xml |log |text |binary |zip )?(files?|uploads?|inputs?|payloads?|bod(y|ies)|documents?|requests?|responses?|exports?|imports?)\b/i,
      1.2,
    ],
    // a port or a file still held by a process that should have let it go
    [/\beaddrinuse\b|\baddress already in use\b|\bebusy\b|\bresource busy\b/i, 1.2],
    // Python's report of a file, socket or session left open
    [/\bresourcewarning\b|\bunclosed (file|socket|transport|client ?session|connector|event loop)\b/i, 1.5],
    [/\b(over[- ]?)?allocat(e|es|ed|es|ing|ion|ions)\b/i, 0.6],
    [/\bmemory\b/i, 0.6],
    [/\bclean ?up\b|\bcleaned up\b|\bcleanup\b|\bdispos(e|al)\b|\bfinaliz/i, 1],
    [/\blisteners?\b|\bunsubscrib/i, 0.7],
    [/\bclos(e|es|ing) (of )?(the )?(handles?|files?|connections?|sockets?|streams?|callbacks?|resources?)\b/i, 1],
    [/\bfile descriptors?\b|\btoo many (open|processes|connections|files)\b|\bexhaust/i, 1],
    [/\bslow(ness)?\b|\bperf(ormance)?\b|\bquadratic\b|\bcpu\b|\bthrottl/i, 1],
    // how an issue says it: a time measured, memory that grows
    [SLOWNESS_MEASURED, 1.2],
    // memory told by its numbers: "uses 2 GB after a day of uptime; it starts at 200 MB"
    [MEMORY_MEASURED, 1.2],
    [
      /\bout of memory\b|\boutofmemoryerror\b|\bheap (space|out of memory)\b|\boom(-killed)?\b|\bmemory (usage )?(grows|keeps growing|increases|balloons|explodes)\b|\bheap (grows|exhausted)\b/i,
      1.2,
    ],
    [
      /\b(not|never|does ?n[o']t|fails? to) (terminat|exit)\w*|\bkeeps? (the )?(process|event loop) (alive|running)\b/i,
      1,
    ],
    [/\bprocesses\b|\bresources?\b|\bzombie|\borphan/i, 0.5],
    [/\bcach(e|es|ing)\b|\bsockets?\b/i, 0.3],
    // handles, listeners or sockets that are never released accumulate
    [/\b(pile|piles|piling) up\b|\bkeep(s)? accumulating\b/i, 0.8],
    // handles counted as they grow: "Errno 24", "CLOSE_WAIT", "goroutine count keeps climbing"
    [
      /\berrno 24\b|\bemfile\b|\btoo many open (files|handles|sockets|connections)\b|\bclose_wait\b|\b(goroutines?|threads?|connections?|sockets?|handles?|file descriptors?) (count )?(keeps? )?(climb|grow|pil|accumulat|increas)\w*|\b(number|count) of (goroutines|threads|open files|connections|sockets|file descriptors)\b/i,
      1.3,
    ],
  ],
  lessons: [
    {
      id: 'listener-leak',
      title: 'Listeners must be removed when their work ends: the listener count must stay flat',
      description:
        'A listener added on every call to a long-lived object (a pooled connection, a server, a signal) accumulates and leaks memory.',
      check:
        'Call the operation many times on the same long-lived object, including calls that fail or are aborted, and assert its listener count returns to the starting value.',
      cues: [
        [
          /\blisteners?\b|\bevent handlers?\b|\bsubscri(be|bes|bed|bing|bers?|ptions?)\b|\bmaxlisteners\w*\b|\bon\(\w*\)/i,
          1,
        ],
        [new RegExp(String.raw`${RESOURCE_LEAK.source}|\bclean(ed)? ?up\b|\bremov\w*\b|\baccumulat\w*\b`, 'i'), 0.7],
      ],
    },
    {
      id: 'resource-release',
      title: 'Files, sockets, handles and child processes must be released on every path, including errors',
      description:
        'A resource opened on a path that returns early or throws is never closed, and the process runs out of handles or memory.',
      check:
        'Count open handles, sockets or child processes before and after the operation, including when it fails, and assert they return to the starting value.',
      cues: [
        // an interrupt that skips the cleanup: a terminal left raw, a lock file or a temp file left behind
        [
          /\b(ctrl[- +]?c|sigint|sigterm|interrupt\w*|killed)\b.{0,40}\b(leaves?|left|stays?|remains?)\b|\b(leaves?|left) (the |a |its )?(terminal|tty|cursor|lock ?files?|temp(orary)? (files?|dir\w*)|sockets?|ports?)\b/i,
          1,
        ],
        [RESOURCE_LEAK, 1],
        [/\b(file descriptors?|fds?|handles?|sockets?|connections?|child process\w*|processes|zombies?)\b/i, 0.6],
        [
          /\bclos(e|es|ed|ing)\b|\brelease[sd]?\b|\bdispos\w*\b|\bclean ?up\b|\bfinaliz\w*\b|\bon exit\b|\bteardown\b/i,
          0.6,
        ],
        [/\btoo many open\b|\bemfile\b|\bexhaust\w*\b|\bout of memory\b|\bmemory (usage|growth)\b/i, 1.2],
        [
          /\bunclosed\b|\bresource ?warnings?\b|\b(not|never) (being )?(closed|killed|freed|returned)\b|\bleft (open|running)\b|\bmissing (\w+ )?close\b|\b(killed|closed|cleaned up|released) on (exit|shutdown|error)\b|\breturn\w* .{0,30}\bto (the )?pool\b|\bback to (the )?pool\b/i,
          1.2,
        ],
        [/\b(connection|thread|worker|object) pool\w*\b|\bpooling\b|\bpooled\b/i, 0.6],
      ],
    },
    {
      id: 'idempotent-registration',
      title: 'Registering, installing or loading the same thing twice must be harmless',
      description:
        'A plugin installed again, a class defined again or a handler registered again is appended instead of replacing or skipping, so state and memory grow and behaviour changes with each repetition.',
      check:
        'Call the registration, install or load step twice (and many times in a loop) and assert the second call is a no-op: one entry, one effect, flat memory.',
      cues: [
        // an HTTP idempotency key is about duplicate requests (the concurrency kind), not registration
        [/\bidempoten\w*\b(?! keys?\b)/i, 1.4],
        [
          /\b(register\w*|install\w*|load\w*|enabl\w*|defin\w*|creat\w*) .{0,40}\b(twice|more than once|too many times|repeatedly|again and again|each time)\b|\b(twice|more than once|repeatedly|again)\b.{0,12}\b(register\w*|install\w*|load\w*|enabl\w*)\b/i,
          1.2,
        ],
      ],
    },
    {
      id: 'bounded-work',
      title: 'Work that scales with input must be bounded: limit parallelism and avoid quadratic paths',
      description:
        'Unbounded parallelism or a quadratic loop is fine on small inputs and exhausts the machine on large ones.',
      check:
        'Benchmark the changed path on a large input with a simple budget, and bound parallel work by a limit (such as the CPU count) rather than the input size.',
      cues: [
        [/\bslow\w*\b|\bperf(ormance)?\b|\bquadratic\b|\bo\(n\^?2\)|\bcpu\b|\bspeed\w*\b|\bfaster\b/i, 1],
        [SLOWNESS_MEASURED, 1],
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
    },
  ],
});
