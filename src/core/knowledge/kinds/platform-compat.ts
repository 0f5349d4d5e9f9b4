/** The routine kind platform-compat (operating systems): its cues, routines and lessons. */
import { defineKind } from '../entry.js';

/** Where code runs, as a reporter names it. */
const PLACE = String.raw`(node(\.?js)?|deno|bun|the browser|browsers?|chrome|firefox|safari|edge|windows|linux|macos|mac|ios|android|docker|wsl|the (\w+ )?build|production|dev mode)`;
/**
 * One behaviour in one place and another elsewhere ("lowercase in Node but camel case in the
 * browser build", "works on Linux but not on Windows"): a difference between platforms, and a failure.
 */
export const PLATFORM_DIFFERENCE = new RegExp(
  String.raw`\b(in|on|under|with) ${PLACE}\b.{0,50}\bbut\b.{0,50}\b(in|on|under|with) ${PLACE}\b`,
  'i',
);

export const platformCompat = defineKind({
  kind: 'platform-compat',
  template: {
    label: 'operating systems',
    title: 'Run the change on every operating system you support',
    description:
      'Paths, shells, terminals and file systems differ between operating systems, so code that passes on one can break on another.',
    check:
      'When code touches paths, processes, shells, the terminal or the file system, run its tests on each supported operating system, and build paths with the platform path helpers instead of string concatenation.',
    why: 'A test matrix across operating systems shows this kind of failure before users on the other system do.',
    also: 'run that test on every supported operating system',
    step: 'Run the suite on every supported operating system.',
  },
  facets: [
    {
      name: 'os',
      cue: /\b(windows|win32|macos|darwin|linux|posix|freebsd|android|ios|path separators?|backslash(es)?|drive letters?|shells?|zsh|bash|fish|powershell|terminals?|tty|file ?systems?|case[- ]insensitive)\b/i,
    },
    {
      name: 'runtime',
      cue: /\b(node(\.?js)? ?v?\d+|python ?[23](\.\d+)?|runtime versions?|ie ?\d+|internet explorer|safari|browsers?|engines?)\b/i,
      template: {
        label: 'runtime versions',
        title: 'Test on the oldest and newest runtime and browser versions you support',
        description:
          'Language runtimes and browsers add, change and remove APIs between versions, so code can break on a version the author did not run.',
        check:
          'Run the tests on the oldest and the newest supported runtime versions, and in the supported browsers for browser code, and avoid or guard APIs newer than the oldest supported version.',
        why: 'A version matrix catches such a break before users on that version hit it.',
        also: 'run that test on the oldest and newest supported runtime versions',
        step: 'Run the suite on the oldest and newest supported runtime versions.',
      },
    },
  ],
  learnedRule: 'Test the {p} on every supported platform and runtime',
  vocabulary: 'platform operating system windows paths runtime version shell',
  textCues: [
    [PLATFORM_DIFFERENCE, 1.4],
    [/\bwindows\b|\bwin32\b|\bmacos\b|\bdarwin\b|\bos ?x\b|\blinux\b|\bposix\b|\bfreebsd\b|\bandroid\b|\bios\b/i, 1.2],
    [/\bpath separators?\b|\bbackslash(es)?\b|\bdrive letters?\b/i, 1.2],
    [/\bnode(\.?js)? ?v?\d+|\bpython ?[23](\.\d+)?\b|\bruntime versions?\b/i, 1],
    [/\bie ?\d+\b|\binternet explorer\b|\bsafari\b|\bbrowsers?\b/i, 1],
    [/\b(zsh|bash|fish|powershell|cmd\.exe)\b/i, 1],
    [/\bplatforms?\b|\bcross-platform\b|\bportab/i, 1],
    [
      /\b(32|64)[- ]?bits?\b|\b(x86(_64)?|i[3-6]86|x64|arm64|aarch64|riscv\d*|s390x?|apple silicon|m[12] macs?|bad cpu type)\b|\barch(itectures?|s)?\b|\bendian\w*/i,
      1.2,
    ],
    [/\b(pypy|jython|graalpy|cpython|deno|bun|wasm|webassembly|musl|glibc|alpine)\b/i, 1],
    [/\bshells?\b|\bterminals?\b|\btty\b|\bfile ?systems?\b|\bcase[- ]insensitive\b/i, 0.5],
  ],
  files: {
    evidence: 'platform-specific code',
    cues: [[/_(windows|win32|darwin|unix|linux)\.\w+$|(^|\/)(win32|windows|platform)[/._-]/i, 0.8]],
  },
  lessons: [
    {
      id: 'windows-paths',
      title: 'Paths must be tested in Windows form (backslashes, drive letters, UNC), not only POSIX',
      description:
        'Path handling written with forward slashes doubles, drops or misreads separators, drive letters and UNC prefixes on Windows.',
      check:
        'Run the path tests on Windows in CI, with drive letters, backslashes, UNC paths and mixed separators, and build paths with the platform path library instead of string concatenation.',
      cues: [
        [/\bwindows\b|\bwin32\b|\bwin64\b/i, 1],
        [/\bpath separators?\b|\bbackslash(es)?\b|\bdrive letters?\b|\bunc paths?\b|\bseparators?\b/i, 0.8],
        [/(^|[\s`'"(])[a-z]:\\|\b(another|other|different|second|network) drive\b/i, 1.2],
        [/\bpaths?\b/i, 0.3],
      ],
    },
    {
      id: 'shell-specific-behaviour',
      title: 'Shell integration must be tested in each supported shell',
      description:
        'Quoting, completion and escaping rules differ between bash, zsh, fish and PowerShell, so output that is right in one shell breaks in another.',
      check:
        'Run the shell integration (completion scripts, generated commands) under each supported shell in CI, with values that contain spaces, colons and quotes.',
      cues: [
        [/\b(bash|zsh|fish|powershell|pwsh|cmd\.exe|sh)\b/i, 1.1],
        [/\b(shell )?completions?\b|\bshells?\b/i, 0.6],
      ],
    },
    {
      id: 'runtime-version-matrix',
      title: 'Run the tests on every supported runtime version, oldest and newest',
      description:
        'A runtime release changes a built-in behaviour, an error message or an API, so code and tests that pass on one version fail on another.',
      check:
        'Keep a CI matrix with the oldest and newest supported runtime versions (and the next one, allowed to fail), and avoid asserting on messages the runtime writes.',
      cues: [
        [
          /\bnode(\.?js)? ?([<>]=? ?)?v?\d+|\bpython ?([<>]=? ?)?[23](\.\d+)?\b|\bgo ?([<>]=? ?)?1\.\d+\b|\bruby ?\d|\bjava ?\d+\b|\bpy ?3\.?\d+\b/i,
          1.2,
        ],
        [
          /\b(newer|older|latest|new|old) (node|python|runtime|go|rust|java|ruby|v8|engines?|jvm|interpreters?|versions? of (node|python|go|rust))\b|\bruntime versions?\b/i,
          1,
        ],
        [/\bmsrv\b|\bminimum supported\b/i, 1],
        // a compiler that does not know the feature yet: the code is newer than its oldest toolchain
        [/\berror\[e0658\]|\buse of unstable (library )?feature\b|\b(is|are) (still )?unstable\b/i, 0.8],
      ],
    },
    {
      id: 'word-size',
      title:
        'Code must be tested on 32-bit targets, where pointer-sized integers, time values and 64-bit atomics differ',
      description:
        'Sizes, offsets and time values computed on a 64-bit machine overflow or change on a 32-bit target, and a 64-bit atomic operation on a field that is not 8-byte aligned panics there.',
      check:
        'Run the tests on a 32-bit target in CI (or cross-compiled under an emulator), keep 64-bit atomic fields first in their structure, and make size assertions and far-future dates depend on the pointer width.',
      cues: [
        [/\b32[- ]?bits?\b|\bi[3-6]86\b|\barmv7\b/i, 1.1],
        [
          /\b(pointer|word)[- ](width|size)\b|\busize\b|\buintptr\b|\b(8|eight)[- ]byte align\w*|\b(mis)?align(ed|ment)\b.{0,20}\b(atomic\w*|struct\w*|fields?)\b|\by(ear)? ?2038\b/i,
          0.8,
        ],
        [/\batomic\w*\b.{0,30}\b(u?int64|64)\b|\b(u?int64|64[- ]?bit)\b.{0,30}\batomic\w*/i, 0.6],
      ],
    },
    {
      id: 'legacy-target-compat',
      title: 'Code must run on the oldest engine or browser it supports',
      description:
        'A newer language feature or built-in used in shipped code is missing in an older browser, engine or minifier that users still have.',
      check:
        'Run the built output through the oldest supported target in CI (an old browser or engine, or a syntax check for that target) and fail on any unsupported feature.',
      cues: [
        [
          /\bie ?\d+\b|\binternet explorer\b|\bsafari\b|\bold(er)? browsers?\b|\bes5\b|\bes3\b|\bpolyfill\w*\b|\blegacy\b/i,
          1.3,
        ],
        [/\btranspil\w*\b|\bminif\w*\b|\buglif\w*\b/i, 0.6],
      ],
    },
    {
      id: 'file-system-differences',
      title:
        'File-system behaviour (timestamps, case, links, permissions) differs between systems and must be tested on each',
      description:
        'Timestamp resolution, case sensitivity, symbolic links and permissions differ between file systems, so code that relies on one behaviour fails on another.',
      check:
        'Test file operations on each supported system with coarse timestamps, case-only renames, symbolic links and read-only files, and avoid relying on a modification time changing between two quick writes.',
      cues: [
        [
          /\b(mtime|modification time|file (times?|timestamps?))\b|\bsymlinks?\b|\bsymbolic links?\b|\bhard ?links?\b/i,
          1,
        ],
        // a log line or a record has a timestamp too: it names file systems only beside a file word
        [/\btimestamps?\b/i, 0.4],
        [/\bfile ?systems?\b|\bpermissions?\b|\bread[- ]only\b|\bnfs\b|\bmount\w*\b/i, 0.7],
        [/\b(macos|darwin|linux|freebsd|bsd|android|ios)\b/i, 0.5],
      ],
    },
    {
      id: 'optional-platform-feature',
      after: 'weak-randomness',
      title:
        'A feature the platform may lack (TLS, a hash, a system call, an optional module) must be detected and reported clearly',
      description:
        'Code that assumes an optional part of the runtime exists fails at import or with an unrelated error where it is missing.',
      check:
        'Run the tests with the optional feature made unavailable (mock its import or its absence) and assert a clear error at the point of use, and that everything else still works.',
      cues: [
        [
          /\b(no|without|absent|missing|unavailable|not available|lacks?)\b.{0,30}\b(support|modules?|features?|hash(es)? functions?|library|libraries|ssl|tls|ipv6|system calls?)\b/i,
          1,
        ],
        [
          /\bat runtime\b|\bimport ?errors?\b|\bbuilt without\b|\bcompiled without\b|\bare absent\b|\bis absent\b/i,
          0.6,
        ],
      ],
    },
  ],
});
