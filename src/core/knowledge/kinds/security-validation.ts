/** The routine kind security-validation (untrusted inputs): its cues, routines and lessons. */
import { defineKind } from '../entry.js';

/**
 * An attack told by its payload: a quote that ends a query, a command after a semicolon, a walk up
 * the tree, markup that runs (a script tag alone is how a page loads code), a forged signature.
 * Evidence of what the input is (this kind) and that something failed (knowledge/task-kinds.ts).
 */
export const ATTACK_PAYLOAD =
  /' or '?1'?='?1|\bor 1=1\b|\bunion select\b|;\s*(ls|rm|cat|curl|wget|whoami)\b|(\.\.\/){2,}|\/etc\/passwd\b|<script>[^<]{0,60}<\/script>|\bonerror=|\balert\(|\b(garbage|bogus|forged|fake|invalid) signatures?\b/i;

/** A credential by its names (a lexer's "token" alone is none). */
const SECRET = String.raw`(?:(?:api|auth|access|bearer|refresh|session|oauth|github|npm|secret|csrf|jwt) ?tokens?|passwords?|passwd|secrets?|api[- ]?keys?|credentials?|authori[sz]ation headers?|private keys?|session (?:ids?|cookies?)|client secrets?)`;

/**
 * A secret written where others read it: a log line, an error message, a URL, the output ("the API
 * token leaks into the debug log", "prints the full password"). The performance kind's leaks are
 * of memory and handles, not these (RESOURCE_LEAK).
 */
export const SECRET_EXPOSED = new RegExp(
  String.raw`\b${SECRET}\b.{0,40}\b(?:leak\w*|logged|printed|shown|exposed|visible|dumped|in (?:the )?(?:debug |error |access )?(?:logs?|output|error messages?|stack ?traces?|urls?|query strings?|exceptions?))\b|\b(?:logs?|logging|prints?|printing|dumps?|exposes?|leaks?|leaking|shows?|echo(?:es)?)\b.{0,30}\b(?:the |our |my |a |an |their |users['’] )?(?:full |plain(?:text)? |raw |whole |unmasked )?${SECRET}|\btokens? (?:leak\w*|(?:is|are|was|were|gets?|got) (?:logged|printed|exposed|leaked))\b`,
  'i',
);

/**
 * A check of who may call that lets anyone through: a signature check that passes for any payload,
 * a token accepted whatever it is. Evidence of this kind and of a failure (knowledge/task-kinds.ts).
 */
export const AUTH_BYPASS =
  /\b(signature|auth\w*|token|password|permission|csrf|origin) (checks?|verification|validation)s? (always )?(passes|pass|succeeds?|is skipped|gets skipped)\b|\b(accepts?|accepted|passes|succeeds|valid) (for )?any (payload|signature|token|password|key|request|origin)\b/i;

export const securityValidation = defineKind({
  kind: 'security-validation',
  template: {
    label: 'untrusted inputs',
    title: 'Treat every outside value as hostile and test it at the dangerous sink',
    description:
      'Untrusted input that reaches a shell, a terminal, a header or a trust decision without validation becomes injection or spoofing.',
    check:
      'Find where outside input meets a shell command, escape sequences, a query or a trust decision, and add tests with hostile values (metacharacters, control sequences, forged headers) asserting they are rejected or neutralised; prefer argument lists to command strings and allow-lists to deny-lists.',
    why: 'One hostile-input test exposes this kind of hole before an attacker does.',
    also: 'feed it hostile input as well',
    step: 'Add tests with hostile values at each point where outside input reaches a dangerous call.',
  },
  learnedRule: 'Treat the {p} as hostile input and test it that way',
  vocabulary: 'security untrusted input injection sanitize spoofing',
  textCues: [
    [/\bsecurity\b|\bvulnerab|\bcve-\d/i, 1.2],
    [/\binjection\b|\bsaniti[sz]/i, 1.2],
    // a TLS peer's certificate: verified, or refused
    [
      /\bx509\b|\bcertificate verify failed\b|\bcertificate (signed by unknown authority|has expired)\b|\bself[- ]signed certificate\b/i,
      1.2,
    ],
    [/\bescape sequences?\b/i, 0.5],
    // "inject a script" is often plain wiring (dependency injection, a bundler injecting code)
    [/\binject(ed|s)?\b/i, 0.4],
    [/\bxss\b|\bcsrf\b|\bssrf\b|\bspoof|\bpath traversal\b|\bprototype pollution\b|\bredos\b/i, 1.2],
    [ATTACK_PAYLOAD, 1.4],
    [SECRET_EXPOSED, 1.4],
    [AUTH_BYPASS, 1.4],
    // what a query's syntax error or an unverified token says of the input
    [
      /\berror in your sql syntax\b|\balg(orithm)?["': ]{1,4}none\b|\b(signature|token)s? (is|are)n?['’]?t? (never |not )?(checked|verified)\b|\baccepts? (forged|unsigned|tampered|expired) (tokens?|cookies?|signatures?)\b/i,
      1.4,
    ],
    [/\btrust(ed)?[- ]?prox|\buntrusted\b|\btrust\b/i, 0.8],
    // how a reporter says the input is an attacker's
    [/\b(crafted|forged|malicious|attackers?|exploit(s|ed|able)?|pwned)\b|\b__proto__\b|\bobject\.prototype\b/i, 1.2],
    [/\b(user|client|attacker)[- ](provided|supplied|controlled)\b/i, 0.5],
    // a limit or a check that input gets around
    [/\b(can|could|to) (bypass|get around|circumvent|evade)\b|\bbypass(es|ed)\b/i, 0.8],
    [
      /\b(3rd|third)[- ]part(y|ies)\b|\bcross[- ](origin|domain|site)\b|\b(secure|sensitive) (headers?|cookies?|data)\b/i,
      0.8,
    ],
    [/\bshell ?(=|command|injection)|\bshell=true\b|\bquot(e|ing) (of )?(arguments?|commands?)/i, 1],
    [/\bauth(entication|orization)?\b|\bpermissions?\b|\bsecrets?\b|\bcredentials?\b/i, 0.5],
  ],
  files: {
    evidence: 'security-related code',
    cues: [[/(saniti[sz]|escape|auth|security|trust)[\w-]*\.\w+$/i, 0.4]],
  },
  lessons: [
    {
      id: 'html-output-escaping',
      title: 'Text inserted into HTML must be escaped where it is inserted',
      description:
        'A renderer or template copies text from input into HTML (an attribute, a link target, a title) without escaping it, and the page runs the markup or script it carries.',
      check:
        'Render input holding <script>, an event-handler attribute, a quote that closes the attribute and a javascript: link through each changed path, and assert the output shows it as text and keeps every attribute closed.',
      cues: [
        [/\bxss\b|\bcross[- ]site scripting\b|\bhtml injection\b|<script\b|\bjavascript:|\bonerror=|\bonload=/i, 1.5],
        [/\b(unescaped|unsanitized|raw) html\b|\bescap\w* (the )?html\b|\bhtml[- ]escap\w*\b/i, 1.2],
      ],
    },
    {
      id: 'nesting-depth-limit',
      title: 'Deeply nested input must stop at a depth limit with a clear error, not overflow the stack',
      description:
        'A recursive parser or walker recurses once per level of nesting, so crafted input nested thousands of levels deep exhausts the stack and kills the process.',
      check:
        'Feed the parser input nested far beyond any real document (arrays, tables, brackets, dotted keys) and assert it is refused with the parser’s own error at a documented depth, and that input just under the limit still parses.',
      cues: [
        [
          /\b(deeply|deep) nest\w*\b|\bnesting (depth|levels?|limits?)\b|\b(recursion|depth|nesting) limits?\b|\blimit\w* (the )?(\w+ )?(recursion|nesting|depth)\b|\brecursion ?error\b|\bmax(imum)? (nesting )?depth\b|\brecursed? without (a )?(bound|limit)\b/i,
          1.5,
        ],
        [/\bstack ?overflow\b|\bstack exhaust\w*\b/i, 0.6],
      ],
    },
    {
      id: 'regex-backtracking',
      title: 'A regular expression applied to input must not backtrack catastrophically',
      description:
        'A pattern with nested or overlapping repetition takes exponential time on a long input that almost matches, so one request or one line stalls the process.',
      check:
        'Run each changed pattern on long inputs that almost match (a long run of the repeated character followed by a mismatch) under a time budget, and rewrite nested quantifiers or use a linear-time engine.',
      cues: [
        [
          /\bredos\b|\bcatastrophic backtracking\b|\bregular expression denial\b|\bexponential (time|backtracking)\b/i,
          1.6,
        ],
        // how a reporter measures it: time that doubles with each extra character or pair
        [
          /\beach (extra|additional|more) \w+ (roughly |about |nearly |more or less )?doubles\b|\bgrows exponentially\b|\bexponential(ly)? (slower|longer|growth|blow-?up)\b/i,
          1.2,
        ],
        [
          /\b(regex\w*|regexp|regular expressions?|patterns?)\b.{0,50}\b(slow|takes (forever|\d+)|hangs?|backtrack\w*|cpu)\b|\b(slow|hangs?|backtrack\w*)\b.{0,50}\b(regex\w*|regexp|regular expressions?)\b/i,
          1.3,
        ],
      ],
    },
    {
      id: 'open-redirect',
      after: 'anchored-pattern',
      title: 'A redirect target taken from the request must stay on the same site',
      description:
        'A redirect built from a referer, a path or a parameter that starts with // or a scheme sends the user to another host.',
      check:
        'Test the redirect with targets such as //evil.example, /\\evil.example, https://evil.example and an encoded slash, and assert each stays on the same origin or is refused.',
      cues: [
        [/\bredirect\w*\b/i, 0.6],
        [
          /\b(refer(r)?er|open redirect|slash(es)?|protocol[- ]relative|location header|back url|return url|next url)\b|\/\//i,
          0.6,
        ],
      ],
    },
    {
      id: 'shell-command-injection',
      title: 'Never build a shell command from a string: pass arguments as a list, and test hostile values',
      description:
        'A command assembled by string concatenation or split on spaces lets a value with quotes or metacharacters change what runs.',
      check:
        'Pass arguments as a list to the process API (no shell), and add tests with values containing spaces, quotes, semicolons and $() that assert they arrive as one literal argument.',
      cues: [
        [
          /\bshell ?(=|injection|true|command)\b|\bcommand (string|injection|line splitting)\b|\bshlex\b|\bexec\w* (of )?(user|untrusted)\b/i,
          1.3,
        ],
        [/\bsaniti[sz]\w*\b|\binject\w*\b|\bmetachar\w*\b/i, 0.7],
        [/\b(spawn|exec|subprocess|system\(\))\b/i, 0.5],
      ],
    },
    {
      id: 'terminal-escape-injection',
      title: 'Untrusted text printed to a terminal must have its control characters neutralised',
      description:
        'File names, messages or data containing escape sequences can rewrite the terminal, hide output or trigger actions when printed raw.',
      check:
        'Print values containing ANSI escape sequences, carriage returns and other control characters through each output path and assert they are escaped or removed.',
      cues: [
        [/\bansi\b|\bterminal (escape|control)\w*|\bescape (sequence|code)s? injection\b/i, 1],
        // a string literal has escape sequences and control characters too: they need an injection word beside them
        [/\bescape sequences?\b|\bcontrol char\w*\b|\bterminal\b/i, 0.5],
        [/\binject\w*\b|\bsaniti[sz]\w*\b|\bhyperlinks?\b/i, 0.6],
      ],
    },
    {
      id: 'spoofed-client-header',
      title: 'Headers a client can set (X-Forwarded-For, Host) must be trusted only from known proxies',
      description: 'Trusting a forwarded header from any client lets it spoof its address, protocol or host.',
      check:
        'Send requests with forged forwarding headers from an untrusted address and assert the server ignores them; test each trust setting (none, a hop count, a list of proxies).',
      cues: [
        [/\bx-forwarded\w*\b|\bforwarded (for|headers?)\b|\btrust ?prox\w*\b|\bproxy trust\b|\bspoof\w*\b/i, 1.4],
        [/\bclient (ip|address)\b|\bhop[- ]count\b|\bhost header\b/i, 0.8],
        // an app behind a proxy that terminates TLS or rewrites the client's address
        [
          /\bbehind (a |an |the |our )?(reverse )?(proxy|nginx|load ?balancer|apache|traefik|cloudflare|ingress|haproxy)\b/i,
          1,
        ],
      ],
    },
    {
      id: 'credentials-across-hosts',
      title: 'Credentials (Authorization, cookies) must not follow a redirect to another host',
      description:
        'A client that keeps sending authorization headers or cookies after a redirect leaks them to a host that should not see them.',
      check:
        'Follow a redirect to another host (and to another scheme or port) in a test and assert the Authorization header and cookies are dropped, and kept for the same host.',
      cues: [
        [/\bauthori[sz]ation\b|\bcredentials?\b|\bcookies?\b|\btokens?\b|\bauth headers?\b|\bbasic auth\b/i, 0.8],
        [/\bredirect\w*\b|\banother (host|domain|origin)\b|\bcross[- ](origin|domain|site)\b/i, 0.7],
      ],
    },
    {
      id: 'path-traversal',
      title: 'A path built from untrusted input must stay inside its root',
      description:
        'A name containing a parent-directory step or an absolute path lets a caller read or write outside the intended directory.',
      check:
        'Resolve each untrusted path against its root and test names with ../, absolute paths, encoded separators and symbolic links, asserting they are refused.',
      cues: [
        [
          /\bpath traversal\b|\bdirectory traversal\b|\.\.\/|\bzip slip\b|\boutside (the )?(root|directory|folder)\b/i,
          1.5,
        ],
      ],
    },
    {
      id: 'prototype-pollution',
      title: 'Keys taken from input must never write to __proto__, constructor or prototype',
      description:
        'A merge, a path setter or a patch that follows keys from input walks into an object’s prototype and changes every object of the program.',
      check:
        'Feed the changed merge, set or patch code the keys __proto__, constructor and prototype (alone and inside a path) and assert they are refused or stored as plain own keys, and that the shared object prototype is unchanged afterwards.',
      cues: [
        [/\bprototype pollution\b|\bpollut\w* (the )?(object )?prototype\b|\b__proto__\b|\bobject\.prototype\b/i, 1.5],
        [/\bconstructor\.prototype\b/i, 1],
      ],
    },
    {
      id: 'header-value-injection',
      title: 'A value written into a header must be escaped: quotes, newlines and non-ASCII cannot pass through',
      description:
        'A file name, cookie or redirect target copied into a header unescaped breaks its syntax or lets a caller inject another header.',
      check:
        'Write values containing quotes, semicolons, CR and LF and non-ASCII characters through each header the change builds, and assert they are escaped or encoded and no new header appears.',
      cues: [
        [/\bcontent-disposition\b|\bset-cookie\b|\bheader (values?|injection|splitting)\b|\bresponse splitting\b/i, 1],
        [/\bescap\w*\b|\bquot\w*\b|\bcrlf\b|\bnewlines?\b|\binject\w*\b|\bfile ?names?\b/i, 0.5],
      ],
    },
    {
      id: 'secrets-in-output',
      title: 'Secrets (tokens, passwords, API keys) must never reach logs, error messages or URLs',
      description:
        'A credential copied into a log line, an exception message, a debug dump or a query string is read by everyone who can read those.',
      check:
        'Run the changed code with a known fake secret at every log level and through its error paths, and assert the secret appears in no log line, error message, URL or serialized output; redact it where it is printed.',
      cues: [
        [SECRET_EXPOSED, 1.5],
        // a logger's redaction is also a feature of its own, whose bugs are no leak
        [/\bunredacted\b|\bmask(ed|ing)? (the )?(tokens?|passwords?|secrets?|keys?)\b/i, 1],
        [/\bredact\w*\b/i, 0.4],
      ],
    },
    {
      id: 'weak-randomness',
      title: 'Secrets and tokens must come from a cryptographic random source, without bias',
      description:
        'Random values made with a general-purpose generator, or reduced with a modulo, are predictable or uneven, so tokens can be guessed.',
      check:
        'Generate tokens with the platform cryptographic generator, draw uniformly (rejection sampling, not a modulo), and test the distribution of many draws.',
      cues: [
        [
          /\brandom\w*\b.{0,30}\b(bias\w*|predictab\w*|weak|modulo|uniform\w*)\b|\b(bias\w*|predictab\w*|weak)\b.{0,30}\brandom\w*\b/i,
          1.2,
        ],
        [/\bentropy\b|\bcsprng\b|\bmath\.random\b|\bcrypto(graphic)?(ally)? (secure|random)\b|\bnonces?\b/i, 1],
      ],
    },
  ],
});
