import { describe, expect, it } from 'vitest';
import { readTaskKind, readTaskKindOf, silenceReason } from '../../../src/core/retrieval/task-kind.js';

const issue = (title: string, body = '') => (body ? `${title}\n\n${body}` : title);

describe('readTaskKind: a failure is read from its symptoms, not from the word "bug"', () => {
  it.each([
    ['dates shown a day off in UTC+13'],
    ["Users in New Zealand see yesterday's date on invoices"],
    ['Memory grows on every request; after a few hours the process is OOM-killed'],
    ['node prints MaxListenersExceededWarning after 11 requests'],
    ['TypeError: Cannot read properties of undefined (reading "length")', 'Calling `render()` with no props.'],
    ['Export hangs on large projects', 'The progress bar stops at 99% and the command never returns.'],
    ['Search takes 80 seconds on a 2k-row table', 'It used to be instant.'],
    ['`limit: 0` returns every row', 'I pass `limit: 0` and get all 500 rows instead of none.'],
    ['The release workflow is red on Windows', 'The packaging step fails with exit code 1 since yesterday.'],
    ["thread 'main' panicked at src/lib.rs", 'panic: index out of bounds when the list is empty'],
    ['Traceback on an empty config file', 'Traceback (most recent call last):\n  File "cli.py", line 12, in main'],
    [
      'Login cookie not sent after a redirect',
      'The docs say cookies are kept across redirects, but the second request has none.',
    ],
  ])('%j is a failure', (title, body = '') => {
    expect(readTaskKind(issue(title, body))).toBe('failure');
  });

  it.each([
    ['How do I get the error message of a failed request?', 'I want to log it with the status code.', 'question'],
    ['Is there a way to configure a default timeout for all clients?', '', 'question'],
    [
      'Add `onProgress` option as an alternative to the event',
      'It would be convenient for promise-based code.',
      'feature',
    ],
    [
      'Support retries on connection errors',
      "I'd like an opt-in retry when the server resets the connection.",
      'feature',
    ],
    ['Document which error codes are retried', 'A table in the README would help.', 'docs'],
    [
      'Drop Node.js 18 from the CI matrix',
      'It is end-of-life; bumping `engines` lets us use newer built-ins.',
      'chore',
    ],
    ['Should we ship a browser build?', 'Opening this to collect opinions before anyone writes a PR.', 'discussion'],
    ['Thank you!', 'This library never crashed on us in five years of production.', 'discussion'],
  ])('%j is not a failure (%j) but %s', (title, body, kind) => {
    expect(readTaskKind(issue(title, body))).toBe(kind);
  });

  it('a strong symptom outweighs the shape of a question', () => {
    const reading = readTaskKindOf(
      issue('Why does my app hang on `--acf`?', 'It spins at 100% CPU and never returns. I expected an error.'),
    );
    expect(reading.kind).toBe('failure');
    expect(reading.other?.kind).toBe('question');
  });

  it('reads commit subjects by what they repair, and prose repairs as docs', () => {
    expect(readTaskKind('Fix crash when the request body is empty')).toBe('failure');
    expect(readTaskKind('Do not swallow errors after parsing the body')).toBe('failure');
    expect(readTaskKind('docs: fix typo in README')).not.toBe('failure');
  });
});

describe('silenceReason', () => {
  it('names the kind of task it read, and says nothing for a failure', () => {
    expect(silenceReason(issue('How do I retry on 503?', 'Is there a built-in way?'))).toMatch(/is a question/);
    expect(silenceReason(issue('Add a `--json` flag to `list`', 'It would be nice for scripts.'))).toMatch(
      /feature request/,
    );
    expect(silenceReason('Fix crash on empty input')).toBeUndefined();
  });

  it('says nothing for a feature request where features are answered', () => {
    expect(silenceReason('Add a `--json` flag to `list`', ['failure', 'feature'])).toBeUndefined();
  });
});
