import { describe, expect, it } from 'vitest';
import {
  detectRoutinesInFix,
  detectRoutinesInText,
  ROUTINE_KINDS,
  ROUTINE_VOCABULARY,
} from '../../../src/core/knowledge/routines.js';
import { sampleFix } from '../../helpers/sample-fix.js';

const top = (text: string) => detectRoutinesInText(text)[0]?.kind;

describe('detectRoutinesInText', () => {
  it.each([
    ['date parsing breaks for users in UTC+13', 'encoding-locale'],
    // a secret that leaks is exposed, not memory; a run of question marks is text garbled in transit
    ['the API token leaks into the debug log', 'security-validation'],
    ['the service prints the full password when the login fails', 'security-validation'],
    ['a memory leak when the API key is rotated', 'performance-resource'],
    ['Emails with emoji in the subject arrive as ?????', 'encoding-locale'],
    // a check that lets anyone through; a search that misses accented words
    ['The webhook signature check passes for any payload when the secret is unset', 'security-validation'],
    ['Search finds nothing for words with accents like "crème"', 'encoding-locale'],
    ['Header names come back lowercase in Node but in camel case in the browser', 'platform-compat'],
    ['pyright complains: Argument of type "int | None" is incompatible with "int"', 'type-check'],
    ['Calling render() from 4 threads crashes with SIGSEGV now and then', 'concurrency-async'],
    ['wrong day shown after the daylight saving change', 'encoding-locale'],
    ['garbled output for non-ASCII file names', 'encoding-locale'],
    ['the parser crashes on an empty string', 'edge-input'],
    ['off-by-one when the list has a single element', 'edge-input'],
    ['paths use backslashes on Windows', 'platform-compat'],
    ['fails on Node.js 22 only', 'platform-compat'],
    ['two workers write the cache at the same time: race condition', 'concurrency-async'],
    ['upload never stops after the user cancels it', 'concurrency-async'],
    ['memory keeps growing: event listeners are never removed', 'performance-resource'],
    ['the exception from the hook is swallowed and the request hangs', 'error-handling'],
    ['user-controlled header allows spoofing the client address', 'security-validation'],
    ['this is a breaking change for existing callers', 'api-compat'],
    ['the retries option ignores its default when set by environment variable', 'config-env'],
    ['eslint reports an unused variable', 'lint-format'],
    ['the bundle fails to compile for ES5 targets', 'build-packaging'],
    ['the GitHub Actions workflow skips the test job', 'ci-config'],
    ['upgrade to the new major version of the HTTP client dependency', 'dependency-compat'],
    ['type declarations reject a nullable argument', 'type-check'],
    ['the migration fails on a database with existing rows', 'data-migration'],
    ['a new column is missing from the database schema after upgrading', 'data-migration'],
    // how a reporter says the input is an attacker's
    ['A crafted child binding key injects extra log lines', 'security-validation'],
    ['applyPatches lets a patch write to Object.prototype', 'security-validation'],
    // slowness and growth as a reporter measures them
    ['Parsing a 2 MB file takes 80 seconds', 'performance-resource'],
    ['Memory grows on every request; after a few hours the process is OOM-killed', 'performance-resource'],
    ['Rendering is 10x slower since the table got a header row', 'performance-resource'],
    // the reporter compares with an earlier release of the code itself
    ['Custom Host header ignored unless lowercase. This worked in 1.x', 'api-compat'],
    ['c.Args() now starts with the command name. In the previous release it was [some-arg]', 'api-compat'],
    ['truncate(n) with n >= len() clears the buffer; 0.4 did too leave it alone', 'api-compat'],
    // a runtime exception's name is bad input, not a type checker's finding
    ['a TypeError is raised when the value is a tuple', 'edge-input'],
    ['printing a self-referencing structure overflows the stack', 'edge-input'],
    ['the retry delay must be >= 0', 'edge-input'],
    ['the retry count is one higher than asked for', 'edge-input'],
    ['wrong checksums on 32-bit ARM builds', 'platform-compat'],
    ['the import hook fails on PyPy', 'platform-compat'],
    ['the command never exits once the timer is started', 'performance-resource'],
    ['the logger crashes when an entry has a missing timestamp field', 'edge-input'],
    ['wrong URL when no params are given', 'edge-input'],
    ['the cookie is sent along to a third-party host', 'security-validation'],
    ['tests broken by the latest YAML library update', 'dependency-compat'],
    ['the pool keeps over-allocating buffers', 'performance-resource'],
    ['the loader does not respect the cache directory', 'config-env'],
    ['garbled text after decoding UTF-8 file names', 'encoding-locale'],
    ['the abort signal is ignored after the first await', 'concurrency-async'],
    ['ci: the workflow skips the lint job', 'ci-config'],
    ['tests fail after the peer dependency upgrade', 'dependency-compat'],
    ['sanitize escape sequences before printing', 'security-validation'],
    ['Rendering a list of 10k items takes ~20 s, and doubling the list quadruples the time', 'performance-resource'],
    ['Open handles pile up after every request', 'performance-resource'],
    // upgrading to a version named alone is the code's own release; naming a package, a dependency's
    ['After upgrading to 1.5.0, mistyped flags are taken as positional values', 'api-compat'],
    ['Tests break after upgrading lodash to 4.17', 'dependency-compat'],
    // an error's own name says its kind
    ["ModuleNotFoundError: No module named 'httptools' after a plain install", 'build-packaging'],
    ["ImportError: cannot import name 'get_terminal_size' from 'click.termui'", 'dependency-compat'],
    ["UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff", 'encoding-locale'],
    ['asyncio.TimeoutError when the server answers slowly', 'concurrency-async'],
    ['A client can bypass the allowed-hosts check by adding a trailing dot to the name', 'security-validation'],
    // what a user sees, in a user's words
    ['Running two builds at the same time sometimes produces a half-written lockfile', 'concurrency-async'],
    ['The Docker image is 1.2 GB since the last release', 'build-packaging'],
    ["Migrating from 2.x drops every user's saved preferences", 'data-migration'],
    ['Deploying to Alpine fails: Error relocating ... symbol not found', 'platform-compat'],
    ['Our nightly job crashes with "too many open files" after about 3000 files', 'performance-resource'],
    ['Typing a Chinese name in the search box returns nothing', 'encoding-locale'],
    ["Property 'onClose' does not exist on ModalProps after upgrading the component", 'type-check'],
    ['make install: `Makefile:14: *** missing separator. Stop.`', 'lint-format'],
    ['Every request fails after `bundle update` moved rack to 3.1; Gemfile.lock shows the jump', 'dependency-compat'],
    ['The jar from the release page crashes with NoClassDefFoundError: org/slf4j/LoggerFactory', 'build-packaging'],
    ["PRs from forks always go red at 'Upload coverage'", 'ci-config'],
    ['`PORT=8080 npm start` still listens on 3000', 'config-env'],
    ['Two people saving the same page: one edit just disappears', 'concurrency-async'],
    ['All-day events created in Sydney show up a day early', 'encoding-locale'],
    ["Searching for ' OR '1'='1 on the members page lists every member", 'security-validation'],
    ['The indexer grows 200 MB an hour until the kernel kills it', 'performance-resource'],
    ['Since 2.7 ListUsers() returns users sorted by name. Our report relied on the old order', 'api-compat'],
    ['One unreachable webhook URL takes down our whole process', 'error-handling'],
    ["Export says 'Done!' but the file is empty", 'error-handling'],
    // words of those symptoms that say something else here
    ['`cargo build --target wasm32-unknown-unknown` fails with E0446 in stub.rs', 'build-packaging'],
    [
      'nose2 -c my.ini is silently ignored in 0.15.0: with 0.14 the plugins listed in the config were loaded; with 0.15.0 none of them are',
      'config-env',
    ],
    [
      'Exit status is always 0 when a subcommand fails, so our CI job goes green even when the deploy failed',
      'error-handling',
    ],
    [
      'Since the runners picked up Node 18.19.0, the close tests fail on every OS; pinning `18.18.2` in the matrix is only a stopgap',
      'platform-compat',
    ],
    ['Total shows 10050 instead of 150: the summary adds numbers like strings', 'type-check'],
    ['Our pipeline started failing overnight without any changes on our side', 'dependency-compat'],
    ['Icons all gone in the packaged app; the .dmg from the release page shows blanks', 'build-packaging'],
    ['Two invoices got the same number: the customers paid within a second of each other', 'concurrency-async'],
    ["Scripts fail with $'\\r': command not found on the build box", 'encoding-locale'],
    ['Uploading a file named `holiday; ls -la.jpg` runs the listing', 'security-validation'],
    ["validate({'email': '<script>alert(1)</script>'}) echoes the value into the page", 'security-validation'],
    [
      'Including the plugin from a CDN `<script>` tag throws `ReferenceError: process is not defined`; the others load fine without a bundler',
      'build-packaging',
    ],
  ])('%s → %s', (text, kind) => {
    expect(top(text)).toBe(kind);
  });

  it.each([
    // plain wiring, a CSS property and a runtime environment are not these kinds' findings
    ['inject the polyfill script into the page head', 'security-validation'],
    ['the inline style attribute is dropped', 'lint-format'],
    // one word that other domains use too: a serializer decodes, a process aborts, an issue fails "on CI"
    ['Fix decoding of merge tags', 'encoding-locale'],
    ['the process aborts on an unaligned read', 'concurrency-async'],
    ['the tests fail on CI with a timeout', 'ci-config'],
    ['the peer closes the connection early', 'dependency-compat'],
    ['fix error reporting when the error contains escape sequences', 'security-validation'],
    // a JSON, validation or GraphQL schema is not a database's; nor is SQL injection a migration
    ['Wrong error.path for items validated by a nested schema', 'data-migration'],
    ['Schema.load() drops unknown fields', 'data-migration'],
    // input a user provides is not yet an attacker's
    ['The user-provided config file is ignored', 'security-validation'],
    // a count of arguments or a duration set on purpose is no slowness
    ['The function takes 2 arguments but the docs show 3', 'performance-resource'],
    // an issue names the options of its reproduction in passing: an option alone is weak evidence
    ['With the sort option enabled, the list comes back in the wrong order', 'config-env'],
    // a dependency's own release, named with its package, is a dependency's change
    ['quick-lru 7 no longer works as the cache store; the same code works with quick-lru 5', 'api-compat'],
    ['SQL injection through the order-by parameter', 'data-migration'],
    // Rust's panic line names the thread that panicked, not a race
    ["thread 'main' panicked at src/lib.rs:10:5: called `Option::unwrap()` on a `None` value", 'concurrency-async'],
    ['Decoding an invalid id panics and aborts the thread', 'concurrency-async'],
    // a lower-case dst is a destination, not daylight saving time
    ['A 307 redirect with `Location: /dst` is returned instead of followed', 'encoding-locale'],
    ['copy(src, dst) overwrites dst when both are the same file', 'encoding-locale'],
  ])('does not read "%s" as %s', (text, kind) => {
    expect(
      detectRoutinesInText(text)
        .filter((c) => c.weight >= 0.6)
        .map((c) => c.kind),
    ).not.toContain(kind);
  });

  it('reads a count, a duration or a timeout as no time of day, and a secret that leaks as no leak of memory', () => {
    for (const text of ['Happens every time I export', 'the websocket test times out', 'startup time doubled'])
      expect(detectRoutinesInText(text).map((c) => c.kind)).not.toContain('encoding-locale');
    expect(detectRoutinesInText('API token leaks into the debug log').map((c) => c.kind)).not.toContain(
      'performance-resource',
    );
  });

  it('reads a dependency bumped between two versions, and an input told by its size', () => {
    const kinds = (text: string) =>
      detectRoutinesInText(text)
        .filter((c) => c.weight >= 1)
        .map((c) => c.kind);
    expect(kinds('After bumping left-pad from 1.2.0 to 1.3.0 the tests fail')).toContain('dependency-compat');
    expect(kinds('Opening a 3 GB CSV export freezes the app')).toContain('performance-resource');
  });

  it("reads a Content-Type or a MIME type as a header's, not a type checker's", () => {
    expect(
      detectRoutinesInText('Static files are served with the wrong Content-Type for .mjs').map((c) => c.kind),
    ).not.toContain('type-check');
  });

  it('finds nothing in text without cues, and never regression-test', () => {
    expect(detectRoutinesInText('hello world')).toEqual([]);
    expect(detectRoutinesInText('add a test for it').map((c) => c.kind)).not.toContain('regression-test');
  });

  it('orders kinds by weight and gives several when the text has several cues', () => {
    const cues = detectRoutinesInText('abort listeners are not cleaned up, leaking memory');
    expect(cues.map((c) => c.kind).slice(0, 2)).toEqual(['performance-resource', 'concurrency-async']);
    expect(cues[0]!.weight).toBeGreaterThan(cues[1]!.weight);
  });
});

describe('detectRoutinesInFix', () => {
  it('reads the kinds of files touched', () => {
    const ci = detectRoutinesInFix(
      sampleFix({ title: 'Repair the pipeline', files: ['.github/workflows/ci.yml'], testsChanged: false }),
    );
    expect(ci[0]?.kind).toBe('ci-config');
    const lock = detectRoutinesInFix(
      sampleFix({ title: 'Repair install', files: ['package.json', 'package-lock.json'], testsChanged: false }),
    );
    expect(lock[0]?.kind).toBe('dependency-compat');
    const types = detectRoutinesInFix(
      sampleFix({ title: 'Repair signature', files: ['index.d.ts', 'test/index.test-d.ts'] }),
    );
    expect(types[0]?.kind).toBe('type-check');
    const migration = detectRoutinesInFix(
      sampleFix({ title: 'Repair upgrade', files: ['db/migrations/0004_add_index.sql'] }),
    );
    expect(migration[0]?.kind).toBe('data-migration');
  });

  it('reads which kind of check went red then green', () => {
    const lint = detectRoutinesInFix(
      sampleFix({ title: 'Repair CI', files: ['src/a.ts'], signals: [{ kind: 'check-red-green', check: 'lint' }] }),
    );
    expect(lint[0]?.kind).toBe('lint-format');
    const build = detectRoutinesInFix(
      sampleFix({ title: 'Repair', files: ['src/a.ts'], signals: [{ kind: 'check-red-green', check: 'build' }] }),
    );
    expect(build[0]?.kind).toBe('build-packaging');
  });

  it('falls back to regression-test when tests changed and nothing sharper is found', () => {
    const cues = detectRoutinesInFix(
      sampleFix({ title: 'Repair the widget', files: ['src/widget.ts', 'test/widget.test.ts'] }),
    );
    expect(cues.map((c) => c.kind)).toEqual(['regression-test']);
    expect(
      detectRoutinesInFix(sampleFix({ title: 'Repair the widget', files: ['src/widget.ts'], testsChanged: false })),
    ).toEqual([]);
  });

  it('counts the title more than the body', () => {
    const cues = detectRoutinesInFix(
      sampleFix({ title: 'Handle an empty list', problem: 'Seen on Windows.', files: [] }),
    );
    expect(cues[0]?.kind).toBe('edge-input');
  });
});

describe('routine vocabulary', () => {
  it('has vocabulary for every kind', () => {
    for (const kind of ROUTINE_KINDS) expect(ROUTINE_VOCABULARY[kind].length).toBeGreaterThan(5);
  });
});
