import { describe, expect, it } from 'vitest';
import { detectLesson, LESSONS, rankLessons } from '../../../src/core/knowledge/lessons.js';

describe('the lesson catalog', () => {
  it('has unique ids and one-sentence descriptions, titles that name a lesson, not a category', () => {
    expect(new Set(LESSONS.map((l) => l.id)).size).toBe(LESSONS.length);
    for (const lesson of LESSONS) {
      expect(lesson.description.split(/(?<=\.)\s/)).toHaveLength(1);
      expect(lesson.check.length).toBeGreaterThan(40);
      expect(lesson.title.split(' ').length).toBeGreaterThan(5);
    }
  });

  it.each([
    ['A falsy value such as 0 is treated as missing and replaced by the default', 'falsy-value-as-absent'],
    ['An empty config file crashes the loader', 'empty-input'],
    ['Wrong day after adding one day across the DST change', 'dst-transition'],
    ['fix off-by-one-hour around dst transitions', 'dst-transition'],
    ['Authorization header sent again after a redirect to another host', 'credentials-across-hosts'],
    ['Windows drive letters break path joining', 'windows-paths'],
    ['Error thrown in a hook is swallowed and the request never responds', 'error-reaches-caller'],
    ['Abort signal ignored between two awaited steps', 'cancellation'],
    ['Regex matches only part of the route', 'anchored-pattern'],
    // symptoms as a user tells them, without the lesson's own words
    ['App hangs forever when the upstream server never answers', 'timeouts'],
    ['The retry loop hammers the API with no delay after a 429', 'retry-limits'],
    ['Two workers writing the same cache file at once corrupt it', 'shared-mutable-state'],
    // a long number is a value, not a commit id to drop
    ['Large uploads over 2 GB are truncated at exactly 2147483647 bytes', 'integer-limits'],
    ['Sorting names with accents puts É after Z', 'locale-dependent-output'],
    ['Projects stored on another drive cannot be opened', 'windows-paths'],
  ])('%j → %s', (text, id) => {
    expect(detectLesson([[text, 1]])?.lesson.id).toBe(id);
  });

  it('one common word alone names no lesson', () => {
    for (const text of ['Add a default', 'Update the error', 'Change the option', 'Rename the type']) {
      expect(detectLesson([[text, 1]])).toBeUndefined();
    }
  });

  it('a kind the evidence already shows restricts the lessons to that kind', () => {
    expect(detectLesson([['Pipeline step fails on a timeout', 1]], 'ci-config')?.lesson.id).toBe('ci-pipeline');
  });

  it('ignores issue numbers and reads code names as words', () => {
    expect(rankLessons('fixes mem leak relating to issue-1834').map((l) => l.lesson.id)).not.toContain(
      'time-zone-offset',
    );
    expect(rankLessons('Fixes for Utf8Decoder').map((l) => l.lesson.id)).toContain('text-encoding-round-trip');
  });

  // one common word that is ambiguous across domains names no lesson alone; with a second word of the lesson it does
  it.each([
    ['Fix percent decoding of non-ASCII path segments', 'Fix decoding of merge tags', 'text-encoding-round-trip'],
    [
      'Fix string decoding of UTF-16 file names',
      'Return encoding errors for NaN and infinite',
      'text-encoding-round-trip',
    ],
    ['Wrong offset for Etc/GMT+5', 'Fix file path lookup under /etc/app', 'time-zone-offset'],
    ['The request hangs when the server never answers', 'fix: fix a parser hang', 'timeouts'],
    ['The request hangs when the server never answers', 'Set finalization can get stuck in a loop', 'timeouts'],
    ['Abort signal ignored between two awaited steps', 'the process aborts on an unaligned read', 'cancellation'],
    ['Errors go to stdout instead of stderr', 'the message is printed to stdout', 'error-output-channel'],
    [
      'Double slash in the URL when the prefix ends with //',
      'see https://example.com/docs for details',
      'path-joining',
    ],
    ['The same header repeated twice keeps only one of its values', 'the callback is called twice', 'repeated-values'],
    ['Integer overflow when the count is very large', 'Limit recursion to block stack overflow', 'integer-limits'],
    ['Wrong result for negative numbers', 'fix pandas>=3 & negative format_interval', 'numeric-extremes'],
    ['Division by zero when the interval is empty', 'the zero-width space is dropped', 'numeric-extremes'],
    ['A NaN value is reported as changed on every set', 'Fix the FloatConvertor regex', 'non-finite-numbers'],
    [
      'A panic when the optional value is null',
      'do not crash on broken pipe, just redirect to /dev/null',
      'missing-part-crash',
    ],
    ['Index out of range on the last element', 'Fix the multipart boundary of the body', 'boundary-position'],
    ['Copy keeps the file timestamps on Windows', 'do not crash if there is no timestamp', 'file-system-differences'],
    ['Event listeners never unsubscribed leak memory', 'type not subscriptable at runtime', 'listener-leak'],
    ['Generic type parameters rejected by the type checker', 'Return a generic error object', 'published-types'],
    ['Update the peer dependency range', 'the peer closes the connection early', 'dependency-upgrade'],
    ['Fix compiling for the wasm32 target', 'Fix merging a key into a nil target', 'cross-target-build'],
    [
      'sanitize terminal escape sequence injection',
      'fix error reporting when the error contains escape sequences',
      'terminal-escape-injection',
    ],
    ['ci: fix the broken workflow', 'the tests fail on CI with a timeout', 'ci-pipeline'],
    [
      'The migration that adds a column fails on a populated database',
      'Validation fails for a nested schema with $ref',
      'schema-migration',
    ],
    ['Add a column to the users table in SQL', 'Arrays of TOML tables lose their comments', 'schema-migration'],
    // a prerelease judged against a range, not one published
    [
      "Version constraint '>= 1.0, < 2.0' accepts 2.0.0-beta although prereleases should be excluded",
      'Publish a prerelease build from the release branch',
      'version-ordering',
    ],
    ['Plugin list sorts 1.10 before 1.9', 'Crashes on Python 3.10 but works on 3.9', 'version-ordering'],
    ['Fix pre-release checks in constraints', 'The prerelease workflow fails on tag push', 'version-ordering'],
    // a logger's redaction feature is no leak of a secret
    [
      'The full password is printed in the error message',
      'Invalid JSON when redact paths remove a nested key',
      'secrets-in-output',
    ],
    ['CSV export drops the last row', 'Row height is wrong in the export', 'boundary-position'],
    [
      'The pager shows one page too many when the total is exactly divisible by the page size',
      'The page size setting is ignored',
      'boundary-position',
    ],
    // an IPv6 literal has colons; a compiler's error code in brackets has none
    [
      'Requests to http://[2001:db8::1]:8080/ go to the wrong host',
      'cargo build fails: error[E0412]: cannot find type',
      'ipv6-host-forms',
    ],
    [
      'The MSRV job fails: error[E0658]: use of unstable library feature',
      'The job fails on a stable release',
      'runtime-version-matrix',
    ],
    [
      'Calling encode() from 8 threads crashes now and then',
      'Set the number of worker threads',
      'shared-mutable-state',
    ],
    // a date before the epoch; a value held at a ceiling it should pass
    ['Dates before 1970 show up as 1970-01-01', 'Dates are shown in 1970s style', 'calendar-edge-dates'],
    ['Percentages over 100 are capped at 99.99', 'Percentages are shown with two decimals', 'boundary-position'],
    // a proxy in front of the app; output cut at a size
    [
      'The session cookie is not set when the app runs behind nginx with HTTPS',
      'Set the session cookie name',
      'spoofed-client-header',
    ],
    ['Large JSON responses are truncated at 64 KB', 'Large JSON responses are slow', 'boundary-position'],
    // an interrupt that skips the cleanup
    ['Ctrl+C leaves the terminal in raw mode', 'Press Ctrl+C to copy the output', 'resource-release'],
    // one action taken twice by requests that overlap
    ['Customers are charged twice when they double-click Pay', 'Double the font size in print', 'shared-mutable-state'],
    [
      'Two requests with the same idempotency key both create a charge',
      'Setting the same key twice keeps the last value',
      'shared-mutable-state',
    ],
    // binary floating point showing through names the numeric lesson; a float option does not
    [
      'Float rounding: 0.1 + 0.2 shows 0.30000000000000004 in the invoice total',
      'Add a float option to the schema',
      'numeric-extremes',
    ],
    // what the code is given, not what it gives back
    ['Crash when the query has no results', 'Search returns no results for long queries', 'empty-input'],
  ])('%j names it, %j does not → %s', (named, nearMiss, id) => {
    expect(rankLessons(named).map((l) => l.lesson.id)).toContain(id);
    expect(rankLessons(nearMiss).map((l) => l.lesson.id)).not.toContain(id);
  });

  it('a version constraint names the dependency lesson; a bound on a value does not', () => {
    expect(rankLessons('require the client >= 2.31 in the manifest')[0]?.lesson.id).toBe('dependency-upgrade');
    expect(rankLessons('the page size must be >= 1').map((l) => l.lesson.id)).not.toContain('dependency-upgrade');
  });
});
