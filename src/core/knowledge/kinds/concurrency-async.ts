/** The routine kind concurrency-async (races and ordering): its cues, routines and lessons. */
import { defineKind } from '../entry.js';

export const concurrencyAsync = defineKind({
  kind: 'concurrency-async',
  template: {
    label: 'races and ordering',
    title: 'Test operations that overlap, in every order',
    description:
      'Races and ordering bugs only show up when operations run at the same time or complete in an unexpected order.',
    check:
      'Write a test that runs the operation concurrently with itself and with the operations it interacts with, in varied orders, and assert a consistent final state; run it many times, under a race detector where one exists, and avoid shared global state.',
    why: 'A single sequential test cannot reveal an ordering bug; overlapping runs do.',
    also: 'run that test concurrently',
    step: 'Add a test that overlaps the operation with others and run it repeatedly.',
  },
  facets: [
    {
      name: 'race',
      cue: /\b(race( conditions?)?|racy|concurren\w*|parallel\w*|deadlocks?|threads?|mutex\w*|goroutines?|channels?|globals?|shared state|flaky|intermittent\w*|order(ing)?)\b/i,
    },
    {
      name: 'cancel',
      cue: /\b(cancel\w*|abort\w*|time ?outs?|timed out|signals?|shut ?down|hangs?)\b/i,
      template: {
        label: 'cancellation and timeouts',
        title: 'Test cancellation, timeouts and shutdown at every stage of an operation',
        description:
          'Operations stopped part-way by an abort, a timeout or a shutdown often leave work running, fire callbacks twice or never settle.',
        check:
          'Add tests that cancel, time out and shut down the operation before it starts, while it runs and after it finishes, and assert that it settles exactly once, stops its work and reports the cancellation.',
        why: 'Tests that let every operation complete normally cannot catch this kind of bug.',
        also: 'cancel it part-way in that test',
        step: 'Add tests that abort and time out the operation at each stage.',
      },
    },
  ],
  learnedRule: 'Test the {p} under overlapping, late and cancelled operations',
  vocabulary: 'race concurrency async ordering timeout cancellation',
  textCues: [
    [/\b(asyncio\.)?timeouterror\b|\bdeadline ?exceeded\b|\bcontext deadline exceeded\b/i, 1],
    [/\brace( conditions?)?\b|\bracy\b|\bconcurren|\bparallel|\bdeadlock|\bthread-?safe/i, 1.2],
    // operations told to overlap, two people's writes, an older answer shown over a newer one, a
    // connection that came back
    [
      /\bat the same time\b|\bsimultaneous\w*\b|\b(two|both|several|multiple) (people|users|of us|tabs|clients|editors|admins)\b.{0,40}\b(sav\w*|edit\w*|writ\w*|press\w*|click\w*|submit\w*|updat\w*)\b|\b(one|an) (edit|update|change|write) (just )?(disappears|is lost|vanishes|gets lost)\b|\bout of order\b|\b(type|typing|click|clicking|scroll|scrolling) (quickly|fast|rapidly)\b|\bwithin (a|one) (second|few seconds|millisecond)\b|\bgot the same (number|id)\b|\b(several|multiple|many) (uploads|attachments|files|items|requests|jobs)\b.{0,20}\bat once\b|\bstale (results?|responses?|data|values?)\b|\bfail(s|ed)?[- ]?over\b|\bfailover\b/i,
      1.2,
    ],
    // not Rust's panic line ("thread 'main' panicked at …"), nor a panic that aborts the thread
    [/(?<!aborts the )\bthreads?\b(?! '[^']*' panicked)|\bmutex|\bgoroutines?\b|\bchannels?\b/i, 0.8],
    [/\basync\b|\basynchronous|\bawait/i, 0.7],
    [/\bpromises?\b|\bcallbacks? order|\bevent order|\bordering\b/i, 0.6],
    [/\btime ?outs?\b|\btimed out\b/i, 0.9],
    [/\bcancel|\babort ?(signal|controller)/i, 1],
    [/\babort/i, 0.5],
    [/\bsignals?\b|\breceivers?\b|\bsenders?\b|\bshut ?down\b/i, 0.4],
    [/\bglobals?\b|\bshared state\b|\bflaky\b|\bintermittent/i, 0.6],
    // a runtime's own report of unsynchronized access
    [
      /\bconcurrent map (writes|read and map write|iteration and map write)\b|\bconcurrentmodificationexception\b/i,
      1.5,
    ],
    // asyncio's report of a coroutine nobody awaited or a task dropped while it ran; Go's deadlock and closed channel
    [
      /\bwas never awaited\b|\btask was destroyed but it is pending\b|\ball goroutines are asleep\b|\bsend on closed channel\b/i,
      1.5,
    ],
    // operations that overlap, told in plain words; a failure that comes and goes
    [
      /\bat (about |nearly |almost |roughly )?the same (time|moment)\b|\bclose together\b|\b(seconds|milliseconds) apart\b|\bsimultaneous(ly)?\b|\b(two|several|multiple|many|\d+) (workers|processes|threads|instances|clients|jobs|goroutines|tasks|tabs|requests) (write|writing|read|reading|run|running|access|call|calling|use|using|start|update|updating|hit|hitting)\b|\b(two|several|multiple|\d+) (workers|processes|threads|instances|clients|jobs|tasks|tabs|downloads|uploads|users|people|calls) (at once|in parallel)\b|\bunder (heavy |high )?load\b|\b(one|1) (\w+ )?in (\d+|ten|five|twenty|a hundred)\b|\b(can['’]t|cannot|unable to) reproduce (it )?locally\b/i,
      0.8,
    ],
    // work taken as finished before it is: "resolves before the handlers are done"; work cut off by a shutdown
    [
      /\b(resolves?|returns?|finish(es)?|complete[sd]?) before\b.{0,40}\b(done|finish\w*|complete\w*|settled?)\b|\bdoes ?n[o']t wait for\b|\b(sigterm|graceful(ly)? shut ?down)\b/i,
      1.2,
    ],
  ],
  files: {
    evidence: 'concurrency code',
    cues: [[/(worker|thread|mutex|lock|queue|sched|async)[\w-]*\.\w+$/i, 0.3]],
  },
  lessons: [
    {
      id: 'retry-limits',
      title: 'Retries must stop: a bounded number of attempts, a growing wait, and the last error kept',
      description:
        'A retry loop that never gives up, retries at once, retries what cannot succeed or loses the cause turns one failure into a hang, a storm of requests or an error without its reason.',
      check:
        'Make the operation fail every time and assert the retries stop after the limit with the original error, that the waits grow, and that an error which cannot succeed on retry (a 4xx, a bad argument) is not retried.',
      cues: [
        [/\bretr(y|ies|ied|ying)\b/i, 0.8],
        // a retry without a pause floods what it retries
        [
          /\b(no|without( a| any)?) (delay|pause|wait)\b|\bimmediately again\b|\b429\b|\btoo many requests\b|\bhammer\w*\b|\bretry storms?\b|\bthundering herd\b|\b(reconnect|retr(y|ies))\w* (all )?(at once|in a (tight )?loop|immediately)\b|\btight (retry )?loop\b/i,
          0.6,
        ],
        [
          /\bbackoff\b|\bback[- ]off\b|\bjitter\b|\b(max(imum)?|number of) (retries|attempts)\b|\bstop[_ ]after\b|\bwait[_ ](exponential|fixed|random)\b/i,
          1,
        ],
      ],
    },
    {
      id: 'shared-mutable-state',
      title: 'Operations that run at the same time must not share mutable state',
      description:
        'Globals, module-level caches and shared buffers written by concurrent callers give each other’s results.',
      check:
        'Run the operation concurrently with itself many times (under a race detector where the language has one) and assert each call gets only its own result.',
      cues: [
        [/\brace( conditions?)?\b|\bracy\b|\bdata races?\b/i, 1.2],
        [
          /\bconcurren\w*\b|\bparallel\w*\b|\bthread[- ]?safe\w*\b|(?<!aborts the )\bthreads?\b(?! '[^']*' panicked)|\bgoroutines?\b/i,
          0.9,
        ],
        [
          /\bglobals?\b|\bshared (state|buffer|cache|map)\b|\bmutable\b|\bsingleton\b|\b(package|module)[- ]level\b/i,
          0.7,
        ],
        // two runs overlapping, told by what a user sees
        [
          /\bat the same time\b|\bsimultaneous\w*\b|\b(two|several|multiple|many|\d+) (workers|processes|threads|requests|jobs|builds|instances|clients|callers|users|tabs)\b.{0,40}\bat once\b|\b(from|on|in|across|with) (two|several|multiple|many|\d+) (threads|goroutines|workers|processes|coroutines)\b|\b(two|concurrent|parallel|simultaneous|duplicate) (requests?|submits?|submissions?|clicks?|calls?|jobs?)\b.{0,60}\b(both|twice)\b|\bdouble[- ]click\w*\b|\bclick\w* (it |the button )?twice\b|\bidempotency keys?\b|\bhalf[- ]written\b|\binterleav\w*\b/i,
          1,
        ],
        [
          /\bmutat\w*\b.{0,20}\b(initial|shared|global|default|static|cached?)\b|\b(leaks?|leaking) (in)?to (other|every|all|later) (instances?|callers?|clients?|loggers?)\b/i,
          1,
        ],
        [
          /\b(rw)?mutex(es)?\b|\bspinlocks?\b|\bsemaphores?\b|\batomic(ally)?\b|\btoctou\b|\btime[- ]of[- ]check\b|\bcheck[- ]then[- ]act\b/i,
          1,
        ],
      ],
    },
    {
      id: 'pending-async-work',
      title: 'Finish (resolve, emit end, close) only after all pending asynchronous work has completed',
      description:
        'An operation that reports completion while a callback, write or promise is still pending loses or reorders that work.',
      check:
        'Add a test where the last asynchronous step is slow (a delayed callback or write) and assert nothing is reported complete, and nothing is lost, before it finishes.',
      cues: [
        [/\basync\w*\b|\bawait\w*\b|\bpromises?\b|\bcallbacks?\b/i, 0.5],
        [
          /\b(before|after|until|while)\b.{0,30}\b(complet\w*|finish\w*|resolv\w*|done|end(ed)?|pending|flush\w*)\b/i,
          0.8,
        ],
        [/\b(order|ordering|sequence)\b|\bpremature\w*\b|\btoo early\b|\bnot awaited\b/i, 0.8],
      ],
    },
    {
      id: 'cancellation',
      title: 'Cancellation (an abort signal, a closed request) must be honoured at every asynchronous step',
      description:
        'An abort that arrives between two asynchronous steps is missed, so work goes on, resources stay open or a later step throws.',
      check:
        'Test aborting before the start, during each awaited step and after completion, and assert the operation stops, rejects with the abort reason and releases what it opened.',
      cues: [
        [/\babort ?(signal|controller)s?\b|\bcancel\w*\b|\binterrupt\w*\b|\bctrl-?c\b|\bsigint\b|\bsigterm\b/i, 1.3],
        // a process or a build "aborts" as often as a caller aborts an operation
        [/\babort\w*\b/i, 0.6],
        [/\bcontext\b.{0,30}\b(propagat\w*|cancel\w*|deadlines?|done)\b/i, 1.3],
      ],
    },
    {
      id: 'timeouts',
      title: 'Every wait needs a timeout, and the timeout path needs a test',
      description:
        'A wait without a bound hangs forever when the other side never answers, and an untested timeout path leaks or reports the wrong error.',
      check:
        'Add a test where the dependency never answers and assert the operation fails with a timeout error within its bound and leaves nothing running.',
      cues: [
        [
          /\btime ?outs?\b|\btimed out\b|\bdeadlock\w*\b|\bnever (returns|resolves|finishes|ends|completes|settles|answers|responds|replies)\b/i,
          1.2,
        ],
        // the other side gone quiet; "hangs forever" or "unresponsive" alone is as often a loop's as a wait's
        [/\b(stops?|stopped) (responding|answering)\b/i, 0.6],
        // a parser or a loop "hangs" too: a hang names a timeout when a request, a connection or a wait hangs
        [/\bhang(s|ing)?\b|\bhung\b|\bstuck\b/i, 0.7],
        [
          /\b(requests?|connections?|sockets?|responses?|reads?|writes?|network|servers?|clients?|fetch\w*|calls?|wait\w*)\b.{0,30}\b(hang(s|ing)?|hung|stuck)\b/i,
          0.5,
        ],
      ],
    },
    {
      id: 'callback-once',
      title: 'A callback, handler or middleware must run exactly once per call',
      description:
        'On some path (an error, a retry, an async return, a second item) a completion callback or middleware runs twice, or never, so results are handled twice or the caller waits forever.',
      check:
        'Count the calls of the callback or handler in a test for each path (success, error, async, several items) and assert exactly one call, made after the work it reports on.',
      cues: [
        [
          /\b(called|invoked|runs?|ran|fired?|executed|applied) (twice|more than once|multiple times|two times)\b(?! as)|\bmultiple callbacks?\b|\b(callbacks?|handlers?|hooks?|middlewares?) (\w+ ){0,2}(twice|more than once|multiple times)\b|\bdouble (callback|invocation|call)s?\b|\bcallbacks? (called|invoked) (twice|again)\b/i,
          1.4,
        ],
        [/\bexactly once\b|\bonce and only once\b/i, 0.8],
      ],
    },
    {
      id: 'use-after-close',
      title: 'Sending, writing or calling after the other side has closed must not crash',
      description:
        'A producer that keeps writing after the consumer has shut down panics or throws on the closed channel, stream or socket.',
      check:
        'Close the receiving side first (stop the consumer, end the stream, drop the connection) while work is still being produced, and assert the producer stops cleanly.',
      cues: [
        [/\b(after|once)\b.{0,20}\b(clos\w*|shut ?down|ended|end|exit\w*|disconnect\w*|dropped)\b/i, 1],
        [
          /\bclosed (channel|stream|socket|pipe|connection)\b|\bbroken pipe\b|\bepipe\b|\bwrite after end\b|\breceiver\b/i,
          1.2,
        ],
      ],
    },
  ],
});
