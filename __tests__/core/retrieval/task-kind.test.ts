import { describe, expect, it } from 'vitest';
import { readTaskKind, readTaskKindOf, silenceReason } from '../../../src/core/retrieval/task-kind.js';

const issue = (title: string, body = '') => (body ? `${title}\n\n${body}` : title);

describe('readTaskKind: a failure is read from its symptoms, not from the word "bug"', () => {
  it.each([
    ['dates shown a day off in UTC+13'],
    ["Users in New Zealand see yesterday's date on invoices"],
    // a wrong result told in plain prose: a time off by hours, output cut off, a step run twice
    ['Parsed times are 7 hours off for dates before 1970'],
    ['Long lines are cut off when the output is piped'],
    ['The post-install hook runs twice on a fresh checkout'],
    ['Memory grows on every request; after a few hours the process is OOM-killed'],
    ['node prints MaxListenersExceededWarning after 11 requests'],
    // a title that says what the code does now, with a verb of behaviour
    ['Uploading a file named ../../etc/passwd writes outside the upload folder'],
    ['Sorting names with accents puts É after Z'],
    ['The progress bar jumps backwards when a download restarts'],
    ['The retry loop hammers the API with no delay after a 429'],
    ['wc-lite says a zero-byte file has 1 line', '`touch empty.txt && wc-lite -l empty.txt` prints 1.'],
    ['Blank DATABASE_URL quietly falls back to a local SQLite file', 'The app started happily with `DATABASE_URL=`.'],
    // an error line of a build tool or a compiler, garbled text, an attack's payload, dead children
    ['make install', '`Makefile:14: *** missing separator.  Stop.` on a fresh clone.'],
    ['AppStrings missing', "`CS0103: The name 'AppStrings' does not exist in the current context`."],
    ['Names like Zoë come out as ZoÃ« in the exported PDF', 'They are right on screen.'],
    ['Download link', '`GET /files?name=../../../../etc/passwd` returns the passwd file.'],
    ['Hundreds of `[ffmpeg] <defunct>` entries under vidq', '`ps` is full of dead ffmpeg children.'],
    ["Nightly docs deploy hasn't run since the repo moved", 'The scheduled workflow shows no runs for three weeks.'],
    // a user's words: the app closes itself, a lost thing "anymore", slower and slower, processes left behind
    ['app close itself when i put 0 people in recipe', 'the app close immediately, every time.'],
    ['no notification anymore after update to android 14', "the app don't show any reminder notification."],
    ['Dashboard gets slower every time I switch tabs', 'After twenty switches it is sluggish.'],
    [
      'Dozens of chrome processes left after PDF exports',
      'Our server has 300+ of them, processes left behind by every export.',
    ],
    [
      "Display name with <script> runs in other people's chat",
      'My nickname `<img src=x onerror=alert(1)>` pops up for everyone.',
    ],
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
    // a report in plain prose, with no shape of a request or a question, needs little evidence
    [
      'Wrapped text of line 10000 is shifted one column left',
      'With a file of more than 10000 lines, the continuation rows of line 10000 are narrower than the panel. Lines 9999 and 10001 wrap correctly.',
    ],
    [
      'No CI runs for commits pushed to main',
      "Since the rename, pushes to `main` don't trigger the `main` workflow anymore.",
    ],
    [
      'Project setup.cfg ignored when linting from another directory',
      '`cd ~ && flake8 ~/code/proj/` reads no local config.',
    ],
    // a word of a proposal inside code (a file named "roadmap") is no proposal
    [
      'Crash on a long file name in a narrow terminal',
      "`bat --terminal-width=30 'notes/2025 roadmap.txt'` aborts before printing the header (exit code 101).",
    ],
    [
      'Sending `json: false` posts an empty body',
      'The server receives no body at all. `{json: true}` is sent as `true` as expected.',
    ],
    [
      'Stateful test with large inputs ends in Unsatisfiable',
      'It runs for a long time and then errors with `Unsatisfiable`.',
    ],
    ['Formatting time grows quadratically with long runs of newlines', 'Such input keeps a worker busy for minutes.'],
    // "everything works" elsewhere is a contrast, and "is that intentional?" a report's question
    [
      'Decompress middleware passes the body through for `Content-Encoding: GZIP`',
      'With lowercase gzip everything works; with GZIP the handler gets the raw bytes.',
    ],
    [
      '`alembic downgrade base --sql` outputs DROP TABLE alembic_version',
      'The script ends with `DROP TABLE alembic_version;`, but running the same downgrade online only deletes the row and keeps the table. Is that intentional?',
    ],
    // a refusal, output that changes from run to run, a step done twice, a report titled "Can't …"
    ['poetry update of a sub-dependency refuses to run', 'Older versions just updated it in the lock file.'],
    [
      'The lock file keeps changing on every `poetry lock`',
      'Two developers get different lock files from the same pyproject.',
    ],
    [
      'Same message twice for an invalid address',
      'Posting `{"ip": "foo"}` lists the message two times in the response.',
    ],
    [
      "Can't run rollup on Termux",
      'Any rollup command, even `npx rollup --version`, dies immediately with `Failed to get cpu info`.',
    ],
    [
      '--check says OK but isort then changes the file',
      '`isort --check-only app.py` exits 0 and reports nothing, but the next run edits it.',
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
    ['Make the build run twice as fast', 'Caching the compiled templates would help.', 'feature'],
    ['Can I run rollup on Termux?', 'I would like to build on my phone; is Android a supported platform?', 'question'],
    [
      'Highlight a custom log format with a few regexes instead of a full syntax file',
      'Could bat accept a small config section (pattern -> scope) for simple cases?',
      'feature',
    ],
    [
      'Which exit code does a UsageError produce?',
      'The docs mention exit code 2 for usage errors in passing.',
      'question',
    ],
    ['Project history', 'The project started in 2015 and moved to this organization in 2019.', 'discussion'],
    // a how-to question names failures it asks about; a chore names what it raises or cleans up
    [
      'How do I customise the error payload for validation failures?',
      'For failed validation we want our own shape instead of the default payload. Is `failAction` the intended place?',
      'question',
    ],
    ['Raise the minimum Go version in go.mod', 'go.mod still declares a very old Go version.', 'chore'],
    // a helper asked for by what it would do; what the asker wants is no symptom
    [
      'Helper to get all values of a repeated query parameter',
      '`PeekMulti("id")` returns `[][]byte`. A convenience that returns `[]string` would remove a lot of boilerplate.',
      'feature',
    ],
    [
      'Returning a custom JSON body from recover() for every rejection',
      'I want all rejections (not found, method not allowed) to become `{"error": "...", "code": 404}`. Is matching on the error type the recommended way?',
      'question',
    ],
    // a request's or a question's title names what it is about; a reporter who says nothing fails
    [
      'Silence the SyntaxWarning noise in CI logs',
      'Our CI logs show `SyntaxWarning: invalid escape sequence` from bundled files. Nothing fails, but it buries real output.',
      'chore',
    ],
    [
      'Add a `--retries` option for failed downloads',
      'Our build agents are on a flaky network. An option to retry downloads on connection errors would help.',
      'feature',
    ],
    [
      'Crash reporting integrations: in scope for this repo?',
      'People asked for a layer that sends panics to crash reporting services. Should it live here or stay third-party?',
      'discussion',
    ],
    [
      'Document the behaviour of c.Abort inside middleware',
      "The docs say Abort stops pending handlers, but it's not obvious that code after `c.Next()` still runs.",
      'docs',
    ],
    [
      'Treat lint warnings as errors in CI',
      "`npm test` runs the linter but warnings don't fail the build, so a few have accumulated. Proposal: clean them up.",
      'chore',
    ],
    [
      'Raise the minimum Node.js version in engines',
      'Node 14 is end-of-life and no longer tested. Proposal: bump to the oldest maintained LTS.',
      'chore',
    ],
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

describe('readTaskKind: symptoms told by what was seen, not by a list of words', () => {
  it.each([
    // a wrong output next to a case that looks right
    [
      'Paths printed with doubled quotes on Windows',
      '`tool list --full` prints `""C:\\temp\\a.txt""`. The short listing looks fine.',
    ],
    // what the value should be, said by the reporter
    ['Percent formatter and an eighth of a percent', '`fmt.percent(0.125)` returns `12%`. The result should be `13%`.'],
    ['Rounding of totals', 'The invoice total comes out one cent low; I would expect `10.01`.'],
    // a hedge on what was seen
    [
      'Proxy settings not picked up from HTTPS_PROXY',
      "Requests go straight out; the client doesn't seem to read the variable.",
    ],
    // garbage spliced into output
    [
      'Template renders a nested name badly',
      "`render('Hi {{user}}', { user: { first: 'Ada' } })` gives `Hi [object Object]`.",
    ],
    [
      'Query string gets a page parameter when none is given',
      "`buildUrl('/items', {})` returns `/items?page=undefined`.",
    ],
    // output that is not valid in its own format; an input shown turning into another
    ['CSV export of fields with newlines', 'A field containing a newline is written as is: the file is malformed CSV.'],
    ['Header names lose their case', '`X-Request-ID` becomes `x-request-id` on the way out.'],
    // what a reference or a standard does instead; a concession
    [
      'Fractional durations parsed differently from Go',
      '`parseDuration("1.5h")` returns `1h`, while `time.ParseDuration` gives `1h30m0s`.',
    ],
    [
      'Upload completes when the source stream errors',
      'When the read stream emits an error, `upload()` resolves silently.',
    ],
    [
      'Cached entries outlive their TTL',
      'An entry with `ttl: 1000` is still returned after ten minutes, even though the stats count it as expired.',
    ],
    // the same input, another result on every run
    [
      'Generated lockfile order changes between runs',
      'Running `gen lock` twice on the same tree lists the entries in another order.',
    ],
    // a hole in security
    [
      'merge() lets a JSON payload set properties on every object',
      '`merge({}, JSON.parse(\'{"__proto__": {"isAdmin": true}}\'))` makes `({}).isAdmin` true.',
    ],
    [
      'Bearer token forwarded to a different host after a redirect',
      'We call our API and it answers with a 302 to a CDN.',
    ],
    // a title that says what a piece of code does now
    ['`isEmail` accepts addresses with two @ signs', "`isEmail('a@@b.com')` is true."],
    ['replace() keeps the first match only', ''],
    // a compound noun, not an imperative or a docs request
    [
      'Docs site build runs out of heap on CI',
      '`npm run docs:build` is killed after a few minutes; the heap grows past 4 GB.',
    ],
    [
      'Release bundle ships without source maps',
      "The tarball ends up with no `.map` files; the bundler doesn't seem to pick up `sourcemap: true`.",
    ],
  ])('%j is a failure', (title, body) => {
    expect(readTaskKind(issue(title, body))).toBe('failure');
  });

  it('does not count what a sentence wishes for, asks about or avoids as a symptom', () => {
    // "would make … flaky" is a benefit, not a flaky test
    expect(
      readTaskKind(
        issue(
          'Expose the response body on `HTTPError`',
          "Having the parsed body on the error would make it easier to show the server's message and to debug flaky upstreams.",
        ),
      ),
    ).toBe('feature');
    // "to avoid corrupting data" names what the option prevents; "print a warning" is what it should do
    expect(
      readTaskKind(
        issue(
          'Option to print a warning when a migration has no down step',
          'We want every migration to be reversible, to avoid corrupting data on rollback. An opt-in check would make that easy to enforce.',
        ),
      ),
    ).toBe('feature');
    // a feature named by what the new mode does
    expect(
      readTaskKind(
        issue(
          'Strict mode that throws on unknown options',
          '`loadConfig` could offer `{ strict: true }` so that a misspelled key throws instead of being ignored. Useful for catching typos in CI.',
        ),
      ),
    ).toBe('feature');
    expect(
      readTaskKind(
        issue(
          'Report the offending key in `ValidationError` messages',
          'Today it names the schema path; the key would let users find the field.',
        ),
      ),
    ).toBe('feature');
    // a question's "killed", "truncated" are asked about, not seen
    expect(
      readTaskKind(
        issue('Is `writeFile` atomic?', 'If the process is killed halfway, can the target end up truncated?'),
      ),
    ).toBe('question');
    // an expectation is kept: "I'd expect" is what the reporter did not get
    expect(
      readTaskKind(
        issue('copy() of a missing file', "`copy('nope', 'b')` calls back with nothing; I'd expect `ENOENT`."),
      ),
    ).toBe('failure');
  });

  it('reads a warning the reporter calls harmless as the chore it asks for', () => {
    expect(
      readTaskKind(
        issue(
          'Quiet the ExperimentalWarning printed by the test runner',
          "`npm test` prints `ExperimentalWarning: VM Modules is an experimental feature`. It's harmless, but it clutters the CI output; bumping the runner should get rid of it.",
        ),
      ),
    ).toBe('chore');
  });

  it('reads "line break" as text, not as something that broke', () => {
    expect(
      readTaskKindOf(issue('Keep line breaks in table cells', 'A cell with a line break could wrap there.')).failure,
    ).toBe(0);
  });
});

describe('readTaskKind: an issue filed with its title alone', () => {
  // no body, no word of failure: the title states what the code does now, in its main clause
  it.each([
    ['Headers with uppercase names are not matched'],
    ['Query strings with a plus sign are decoded as spaces'],
    ['Dates before 1970 are printed as 1970-01-01'],
    ['Second call returns stale data from the first call'],
    ['Every retry doubles the number of event listeners'],
    ['Deleting a key inside a loop skips the next key'],
    ['Upload stalls forever when the server closes the connection early'],
    // a plural subject, a negated verb, a participle without its "is", a wrong state
    ['UTF-16 documents decode to garbage'],
    ["Tests don't compile on the oldest supported toolchain"],
    ['CORS preflight rejected when the browser sends header names in lowercase'],
    ['`value = false` is truthy after parsing'],
    ["module 'web' has no attribute 'MsgType' on 1.0.0"],
    // the subject is the title's first word; what an app's user sees
    ['Reminders arrive twice'],
    ['Keeps reconnecting'],
    ['Scrolling is janky on long lists'],
    ['Export button does nothing in Firefox'],
    ['Avatar upload rotates portrait photos'],
    ['App forgets my language choice after restart'],
  ])('%s → failure', (title) => {
    expect(readTaskKind(title)).toBe('failure');
  });

  // a request names the thing it wants or starts with the verb; a subordinate clause is a condition
  it.each([
    ['Show the estimated finish wall-clock time'],
    ['Option for JSON-formatted access logs'],
    ['Typed decorators with ParamSpec'],
    ['Serialize maps with sorted keys'],
    ['Jitter strategy based on a fraction of the current wait'],
    ['Add a per-file-ignores example for test folders'],
    ['API.md: example of the auth extension points in order'],
    ['Release v4.1.0'],
  ])('%s → not a failure', (title) => {
    expect(readTaskKind(title)).not.toBe('failure');
  });

  // no commit subject asks a question: the failure a one-line question names is what it asks about
  it.each([
    ['Which exit code does a ConfigError produce?', 'question'],
    ['How do I run again just the tests that failed in CI?', 'question'],
    ['Which exception should I catch for an invalid YAML file?', 'question'],
    ['Should a ParseError in one file stop the whole run?', 'question'],
  ])('%s → %s', (title, kind) => {
    expect(readTaskKind(title)).toBe(kind);
  });

  it('reads a request to make something more helpful as a feature, and a repair that says "make" as a failure', () => {
    expect(
      readTaskKind(
        issue(
          'Make error messages more helpful when the config file is invalid',
          'Currently it just says "invalid config". It should say which key is wrong.',
        ),
      ),
    ).toBe('feature');
    expect(readTaskKind('Make parse() not crash on empty input')).toBe('failure');
  });

  it('reads one behaviour in one place and another elsewhere as a failure', () => {
    expect(readTaskKind('Response headers are lowercase in Node but camel case in the browser build')).toBe('failure');
  });

  it('reads a leading zero lost and glyphs turned to boxes as failures', () => {
    expect(readTaskKind('Phone numbers with a leading zero lose the zero after import')).toBe('failure');
    expect(readTaskKind('German umlauts in PDF export become boxes')).toBe('failure');
    expect(readTaskKind('Add an option to keep leading zeros')).toBe('feature');
  });

  it('reads one action taken twice as a failure', () => {
    expect(readTaskKind('Two requests with the same idempotency key both create a charge')).toBe('failure');
    expect(readTaskKind('Subscribers get a duplicate email for every order')).toBe('failure');
  });

  it("reads a type checker's complaint as a failure", () => {
    expect(readTaskKind('mypy complains: Argument 2 has incompatible type "bytes"; expected "str"')).toBe('failure');
  });

  it('reads clients that pile onto a service that restarted as a failure', () => {
    expect(
      readTaskKind(
        issue(
          'Reconnect storm when the broker restarts',
          'All 60 consumers retry at once in a tight loop and the broker never recovers.',
        ),
      ),
    ).toBe('failure');
  });

  it.each([
    ['Emails with emoji in the subject arrive as ?????'],
    ['Why does the worker hang after the queue closes?'],
    ['Crash when the list is empty?'],
    ['Is this a leak? RSS grows by 40 MB an hour'],
  ])(
    '%s → failure: a "why" question, a question with its symptom and garbled question marks still report one',
    (title) => {
      expect(readTaskKind(title)).toBe('failure');
    },
  );

  it('reads the same statement with a body as before: the body says what was seen', () => {
    expect(
      readTaskKind(issue('Cache files survive a clear', 'Is that intended? I could not find it in the docs.')),
    ).not.toBe('failure');
  });
});

describe('readTaskKind: an issue whose title states a behaviour, with a body', () => {
  it.each([
    ['HTML in user names is rendered', 'A user named `<img src=x onerror=alert(1)>` runs script on the profile page.'],
    ['Config from env overrides the CLI flag', '`APP_PORT=8080 app --port 9090` listens on 8080.'],
    ['Empty string accepted as a valid URL', "`isUrl('')` returns true."],
    ['Results differ between Python 3.11 and 3.12', '`sorted(items, key=...)` gives a different order on 3.12.'],
  ])('%s → failure', (title, body) => {
    expect(readTaskKind(issue(title, body))).toBe('failure');
  });

  // a negated verb or a bare participle in a title is as often a docs request's or a question's
  it.each([
    [
      "README example for WatchConfig doesn't show how to handle reload errors",
      'It would be useful to show what to do when the reloaded file fails validation.',
    ],
    ['Customising the diff shown when t.deepEqual() fails', 'Is there a way to limit the depth of the diff?'],
  ])('%s → not a failure', (title, body) => {
    expect(readTaskKind(issue(title, body))).not.toBe('failure');
  });
});

describe('readTaskKind: prose to mend is docs, whatever it says of failures', () => {
  it.each([
    ['Broken link in the contributing guide', 'The link to the code of conduct returns 404.'],
    ['Typos in error messages', 'Several error messages say "recieved" instead of "received".'],
    [
      'Changelog entry missing for 2.3.1',
      "The 2.3.1 release fixed the proxy crash but the changelog doesn't mention it.",
    ],
    [
      'README badge shows build failing',
      'The CI badge in the README points to the old Travis build, which shows "failing".',
    ],
    [
      'Update the example config: `extends` no longer accepts a string',
      'The example in docs/config.md uses `extends: "base"`, which now throws "extends must be an array".',
    ],
    // what the docs are about is no symptom ("timeout")
    ['Improve timeout docs', ''],
    ['Fix changelog', ''],
    ['Expand the retry guide', 'Say what happens when every attempt times out.'],
  ])('%s → docs', (title, body) => {
    expect(readTaskKind(issue(title, body))).toBe('docs');
  });

  it('reads a typo that breaks something as a failure', () => {
    expect(readTaskKind("Typo inside a Method field's function makes the field silently disappear")).toBe('failure');
  });
});

describe('readTaskKind: a request that says how things are today', () => {
  it.each([
    [
      'Add an option to not throw on HTTP 404',
      "Right now `get()` throws an HTTPError for a 404. I'd like an option that returns the response instead.",
    ],
    [
      'Better error message when the config file is missing',
      'Currently it says `ENOENT: no such file or directory`. It would help to say which file was expected.',
    ],
    [
      'Speed up startup',
      'Startup takes 1.2 s, mostly importing pandas even for `--help`. Lazy imports would make it instant.',
    ],
    [
      'Plugin API for custom formatters',
      'We want our own output format. Currently we fork the project, which breaks on every release.',
    ],
  ])('%s → feature', (title, body) => {
    expect(readTaskKind(issue(title, body))).toBe('feature');
  });

  it('still reads a report that says what happens today as a failure', () => {
    expect(
      readTaskKind(
        issue('Config file ignored on Windows', 'Currently the app crashes with ENOENT when the path has a space.'),
      ),
    ).toBe('failure');
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
