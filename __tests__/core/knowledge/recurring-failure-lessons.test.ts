/**
 * Lessons for failure classes that recur across repositories and that the catalog used to leave to
 * its kinds' checklists: one `describe` per lesson, with tasks that must name it and a near miss
 * that must not (docs/architecture.md "How to add a lesson").
 */
import { describe, expect, it } from 'vitest';
import { abstractWithRules } from '../../../src/abstraction/rules-abstractor.js';
import { detectLesson, rankLessons } from '../../../src/core/knowledge/lessons.js';
import { sampleFix } from '../../helpers/sample-fix.js';

const named = (text: string) => detectLesson([[text, 1]])?.lesson.id;
const insightOf = (title: string, files: string[]) =>
  abstractWithRules(sampleFix({ title, files })).memories.find((m) => m.level === 'insight');

describe('the lesson new-runtime-release', () => {
  it('is what a fix for a new runtime that also edits the CI matrix teaches', () => {
    for (const title of [
      'Fix tests on Node 22: fs.rmdir no longer accepts the recursive option',
      'Handle the missing tracing API on Node < 18.19',
      'Fix date handling on Python 3.8',
      'Fix go1.12 test regression',
    ]) {
      const insight = insightOf(title, ['lib/fs.js', 'test/fs.test.js', '.github/workflows/ci.yml']);
      expect(insight?.tags, title).toContain('lesson:new-runtime-release');
      expect(insight?.tags, title).toContain('routine:ci-config');
    }
  });

  it('is not named by a CI change that names no runtime version', () => {
    expect(detectLesson([['Pipeline step fails on a timeout', 1]], 'ci-config')?.lesson.id).toBe('ci-pipeline');
    expect(named('Tests fail on the CI runner')).toBe('ci-pipeline');
  });
});

describe('the lesson calendar-edge-dates', () => {
  it('is an edge input (a boundary date), not a time zone or locale matter', () => {
    for (const title of ['Fix range behaviour at end of month/quarter/year frames', 'Fix panic on a leap second']) {
      const insight = insightOf(title, ['src/range.js', 'test/range.test.js']);
      expect(insight?.tags, title).toContain('lesson:calendar-edge-dates');
      expect(insight?.tags, title).toContain('routine:edge-input');
      expect(insight?.tags, title).not.toContain('routine:encoding-locale');
    }
  });
});

describe('the lesson word-size', () => {
  it.each([
    'Panic on 32-bit ARM: unaligned 64-bit atomic add',
    'Size assertion fails on i686 because usize is 4 bytes',
    'Fix type size test on 32-bit targets',
  ])('is named by %j', (task) => {
    expect(named(task)).toBe('word-size');
  });

  it('is not named by a 64-bit value that is only large, nor by a build for another architecture', () => {
    expect(named('Add a 64-bit integer option')).not.toBe('word-size');
    expect(named('Cross-compile the binary for arm64 and musl targets')).toBe('cross-target-build');
  });
});

describe('the lesson nesting-depth-limit', () => {
  it.each([
    'Deeply nested arrays crash the parser with RecursionError',
    'Limit recursion to block stackoverflow on crafted input',
    'Stack overflow on a document with ten thousand nested brackets: limit the nesting depth',
  ])('is named by %j', (task) => {
    expect(named(task)).toBe('nesting-depth-limit');
  });

  it('is not named by a recursion that never ends', () => {
    expect(named('Infinite recursion when a symlink points to its parent')).toBe('non-advancing-loop');
  });

  it('teaches a denial-of-service check: hostile input exhausting the stack', () => {
    const insight = insightOf('Limit parser nesting depth instead of crashing with RecursionError', [
      'src/parser.py',
      'tests/test_parser.py',
    ]);
    expect(insight?.tags).toContain('lesson:nesting-depth-limit');
    expect(insight?.tags).toContain('routine:security-validation');
  });
});

describe('the lesson serialized-output-escaping', () => {
  it.each([
    'Keys containing quotes are not escaped, so the logger writes invalid JSON',
    'Escape backslashes in basic strings when dumping the document',
    'Serializer must escape control characters in strings',
  ])('is named by %j', (task) => {
    expect(named(task)).toBe('serialized-output-escaping');
  });

  it('is not named by input that is split wrongly when parsed', () => {
    expect(named('Flag values with spaces are split in two when parsing')).not.toBe('serialized-output-escaping');
    expect(named('Parser accepts invalid JSON with trailing garbage')).toBe('malformed-input-rejected');
  });
});

describe('the lesson byte-order-mark', () => {
  it.each([
    'JSON body starting with a BOM fails to parse',
    'Config files saved by Notepad start with a byte order mark and the first key is not found',
    'UTF-16 big-endian files decode to garbage',
  ])('is named by %j', (task) => {
    expect(named(task)).toBe('byte-order-mark');
  });

  it('is not named by other non-ASCII text', () => {
    expect(named('Emoji in a commit message are cut in half')).not.toBe('byte-order-mark');
    expect(named('Accented file names are garbled when decoded')).toBe('text-encoding-round-trip');
  });
});

describe('cues of existing lessons for classes that recur in other words', () => {
  it.each([
    ['Tests broken by the latest lodash update', 'dependency-upgrade'],
    ['Fix cache v7+ compatibility', 'dependency-upgrade'],
    ['ResourceWarning: unclosed file when reading the template', 'resource-release'],
    ['Fixed missing f.Close() when writing the config', 'resource-release'],
    ['Per-instance option permanently mutates the initial cache', 'shared-mutable-state'],
    ['Fix code not gofmtd', 'linter-clean'],
    ['Fix missing API on py3.9', 'runtime-version-matrix'],
  ])('%j → %s', (task, id) => {
    expect(named(task)).toBe(id);
  });

  it('a version number alone names no dependency lesson', () => {
    expect(named('Release 2.3 notes')).toBeUndefined();
    expect(named('Bump the version to 2.3')).toBeUndefined();
  });
});

/**
 * Lessons added for classes every ecosystem meets, and for failure shapes the catalog read too
 * broadly: each with tasks that must name it (as the strongest lesson) and near misses that must not.
 */
describe('lessons of recurring classes: each named by its tasks, none by its near misses', () => {
  it.each([
    ['Instead of the fetch promise rejecting, Node throws TypeError [ERR_INVALID_URL]', 'error-contract'],
    ['Unmarshal returns a nil error for truncated input', 'error-contract'],
    ['applyPatches throws a native TypeError instead of its own error', 'error-contract'],
    ['A test failure with a hint would be friendlier than a panic', 'error-contract'],
    ['load(1) raises TypeError from inside the library instead of a `ValidationError`', 'error-contract'],
    ['Load() panics on a broken document; I need an `error` I can report, not a crash', 'error-contract'],
    ['Decoding aborts with `called Result::unwrap() on an Err value: InvalidCharacter`', 'error-contract'],
    ['Our handler returns a 400 for bad input, but this one becomes a 500', 'error-contract'],
    ['`errors.Is(err, net.ErrClosed)` is false for errors from ReadMessage', 'error-classification'],
    ['The write timeout fails `err.(net.Error)`, so our Timeout() check never sees it', 'error-classification'],
    ['The error from a failed request has no URL, so our logs cannot tell which one failed', 'error-message-content'],
    [
      'For a bad escape the error column is wrong: it points one before the offending character',
      'error-message-content',
    ],
    ['Duration formatting drops the sign of negative durations', 'numeric-extremes'],
    ['Wrong remainder when the timestamp is before the epoch', 'numeric-extremes'],
    ['duration_round by zero panics', 'numeric-extremes'],
    ['A NaN value is reported as changed on every set', 'non-finite-numbers'],
    ['format_meter raises OverflowError when total is inf', 'non-finite-numbers'],
    ['Decoding the minimum int64 in binary notation gives a string', 'integer-limits'],
    ['u64 values above i64::MAX are serialised as negative numbers', 'integer-limits'],
    ['Sign extension missing when decoding a narrow int', 'integer-limits'],
    ['Fixed security issue: prototype pollution possible when applying patches', 'prototype-pollution'],
    ['applyPatches lets a patch write to Object.prototype', 'prototype-pollution'],
    ['Merging {"__proto__": {"admin": true}} makes every object an admin', 'prototype-pollution'],
    ['Fix error chain from pkgerrors', 'error-classification'],
    ['Do not check errors with instanceof', 'error-classification'],
    ['errors.Is does not see the wrapped error', 'error-classification'],
    ['Large and tiny floats serialised differently than encoding/json: 1e21 is written out', 'float-text-form'],
    ['Fix JSON encoding of float exponents to be like json.Marshal', 'float-text-form'],
    ['Negative zero is written as 0 and reads back positive', 'float-text-form'],
    ['Fix unstable map key ordering', 'deterministic-output-order'],
    ['The generated file changes on every run: dict iteration order', 'deterministic-output-order'],
    ['Fix url parsing of ipv6 urls on URL.replace', 'ipv6-host-forms'],
    ['Connecting to [::1]:8080 uses port 1', 'ipv6-host-forms'],
    ['Adding one year to Feb 29 gives March 1', 'calendar-edge-dates'],
    ['Jan 31 plus one month lands in March: end of month not clamped', 'calendar-edge-dates'],
    ['ISO week 53 is reported as week 1 of the same year', 'calendar-edge-dates'],
    ['A plus sign in the query is decoded as a space twice: double decoding', 'percent-encoding'],
    ['Path segments with %2F are url-decoded before routing', 'percent-encoding'],
    ['XSS through the link title in rendered markdown', 'html-output-escaping'],
    ['Attribute values are written as raw HTML', 'html-output-escaping'],
    ['ReDoS in the emphasis pattern', 'regex-backtracking'],
    ['The heading regex takes forever on a long line of spaces', 'regex-backtracking'],
    [
      'A short comment with nested brackets hangs the server: each extra pair roughly doubles the time',
      'regex-backtracking',
    ],
    // lessons that recur across the repositories of every labelled set
    ['fix(types): allow the https option to be null', 'published-types'],
    ['The declared return type does not include null', 'published-types'],
    ['Return an error instead of panicking on malformed input', 'error-contract'],
    ['fd panics with a broken pipe when piped into head', 'error-classification'],
    ['The preview process is not killed on exit', 'resource-release'],
    ['Return the write buffer to the pool on a write error', 'resource-release'],
    ['Respect https_only when redirecting', 'option-honoured-everywhere'],
    ['--accept-nth is ignored in filter mode', 'option-honoured-everywhere'],
    ['Async middleware was called twice', 'callback-once'],
    ['fs.copy invokes its callback multiple times', 'callback-once'],
    ['Make plugin loading idempotent', 'idempotent-registration'],
    ['Memory grows when the plugin is installed too many times', 'idempotent-registration'],
    ['Fix builds without the std feature', 'feature-combinations'],
    ['cargo build --no-default-features fails', 'feature-combinations'],
    ['Tests fail with go test -shuffle=on', 'hermetic-tests'],
    ['fix follow=0 scenario', 'falsy-value-as-absent'],
    ['Redirect limited(0) should still follow redirects', 'falsy-value-as-absent'],
    ['Error on too-large u64', 'integer-limits'],
    ['Client panics if the duration is massive', 'integer-limits'],
    ['byte index 24 is not a char boundary', 'bytes-versus-characters'],
    ['Fix arbitrary string slicing in the parser', 'bytes-versus-characters'],
    ['File names that are not valid UTF-8 crash the listing', 'text-encoding-round-trip'],
    ['New subpackages are missing from the wheel', 'build-from-clean'],
    ['fix: typings are not shipped', 'build-from-clean'],
    ['Fix zipped egg discovery on newer setuptools', 'dependency-upgrade'],
    ['Merging a key into a nil target drops it', 'nested-merge'],
    ['Merge nested object properties instead of replacing them', 'nested-merge'],
    ['Region dependent test failures', 'hermetic-tests'],
    ['The release build ships without its .d.ts files', 'build-from-clean'],
    ["Flow cannot find immer's type definitions from the CommonJS entry point", 'build-from-clean'],
    ['Retries never stop when the server keeps answering 503: no backoff', 'retry-limits'],
    ['stop_after_attempt is ignored with wait_exponential', 'retry-limits'],
    ['A HEAD request hangs waiting for a body', 'bodiless-responses'],
    ['json() throws on a 204 No Content answer', 'bodiless-responses'],
    ['A body served with charset=iso-8859-1 comes out garbled', 'declared-charset'],
    ['Shift_JIS files are decoded as UTF-8', 'declared-charset'],
    ['File names from macOS in NFD form do not match the NFC names in the index', 'unicode-normalization'],
    ['A negated pattern in .gitignore does not re-include the file', 'ignore-pattern-semantics'],
    ['Ignore patterns anchored with a leading slash match in subdirectories', 'ignore-pattern-semantics'],
  ])('%j names %s', (task, id) => {
    expect(named(task)).toBe(id);
  });

  it.each([
    ['The date is a day off instead of the 3rd', 'error-contract'],
    ['It prints the usage instead of the error message', 'error-contract'],
    ['Errors are logged without their stack', 'error-classification'],
    ['The cursor column is wrong after a tab', 'error-message-content'],
    ['ReadConfig returns ConfigFileNotFoundError when the file is missing', 'error-contract'],
    ['The hook error is swallowed and the request hangs', 'error-contract'],
    ['Stack overflow on a deeply nested document', 'non-finite-numbers'],
    ['Stack overflow on a deeply nested document', 'integer-limits'],
    ['The info level is printed as inf in the header', 'non-finite-numbers'],
    ['Uploading a large file times out', 'non-finite-numbers'],
    ['undefined assigned to a prototype-inherited key gets dropped', 'prototype-pollution'],
    ['The error message names the wrong file', 'error-classification'],
    ['Rounding a float to two places gives 0.30000000000000004', 'float-text-form'],
    ['The list is sorted in the wrong order when two names are equal', 'deterministic-output-order'],
    ['The host header is dropped on redirect', 'ipv6-host-forms'],
    ['The date is shown a day off in UTC+13', 'calendar-edge-dates'],
    ['Escape quotes in the JSON output', 'percent-encoding'],
    ['The HTML report is missing its title', 'html-output-escaping'],
    ['The pattern does not match the whole value', 'regex-backtracking'],
    ['The request is sent only once', 'retry-limits'],
    ['The published type declarations reject a valid call with null', 'build-from-clean'],
    ['Returns a string instead of bytes', 'published-types'],
    ['Respect the NO_COLOR environment variable', 'option-honoured-everywhere'],
    ['The new parser runs twice as fast', 'callback-once'],
    ['Install the package in a clean virtualenv', 'idempotent-registration'],
    ['Add a feature to export CSV', 'feature-combinations'],
    ['Set the timeout to 0.5 seconds', 'falsy-value-as-absent'],
    ['Merge the two pull requests', 'nested-merge'],
    ['The sort order of merged results is wrong', 'nested-merge'],
    ['Retries back off exponentially, as documented', 'regex-backtracking'],
    ['The head of the list is dropped', 'bodiless-responses'],
    ['Non-ASCII text is garbled when written to the file', 'declared-charset'],
    ['Normalize the paths before joining them', 'unicode-normalization'],
    ['The pattern must match the whole value', 'ignore-pattern-semantics'],
  ])('%j names no %s', (task, id) => {
    expect(rankLessons(task).map((l) => l.lesson.id)).not.toContain(id);
  });
});
