#!/usr/bin/env python3
"""Write ../lessons.jsonl, ../symptoms.jsonl and ../offtopic-issues.jsonl (hand-written content)."""
import json, os
HERE = os.path.dirname(os.path.abspath(__file__))
fixes = [json.loads(l) for l in open(os.path.join(HERE, "..", "fixes.jsonl"))]
by = {f["sha"][:7]: f for f in fixes}

# sha7 -> (lesson, key, key2)
L = {
# rich
"58b7224": ("backslashes in ordinary string literals that do not form a valid escape sequence (such as \"\\[\") raise deprecation warnings and are slated to become errors; write such strings as raw strings, in tests as well as in library code", "invalid-escape-sequence-literal", None),
"f7c0783": ("introspecting arbitrary user objects (reading a callable's signature) can raise TypeError as well as ValueError, for example for objects whose __call__ is not really callable; catch it and leave that part of the output out instead of crashing", "introspection-of-arbitrary-objects", None),
"40dbc0a": ("stopping a background refresh thread must not join it while holding the lock the thread needs to finish its current iteration, or the stop call deadlocks; signal the thread instead of joining it under the lock", "join-at-shutdown-deadlock", None),
"a51bca4": ("a CI step condition that compares the matrix value with a literal version string must be changed together with the matrix, or after a version bump the guarded steps silently stop matching", "ci-condition-literal-matrix-value", None),
"02dffcf": ("a recursive pretty-printer must track the objects it is rendering for every kind of object it descends into (named tuples, attrs classes, objects with a custom repr), not just containers and dataclasses, or a self-reference recurses until the stack overflows", "cycle-guard-in-recursive-repr", None),
"50d2a45": ("a subclass of a generic base must be parameterised with the type it really returns (a float prompt returns float, not int), which a type-level check of the public return type would catch", "public-type-contract-tests", None),
"59b1aca": ("wrapping or folding text to a column width must measure and split in display cells, so a double-width character that straddles the fold point moves to the next line instead of being dropped", "display-width-wide-chars", None),
"7d79acb": ("tests that assert on coloured or plain output must remove colour-control environment variables (NO_COLOR, FORCE_COLOR) for the duration of each test, or they fail wherever a developer or CI runner sets them", "hermetic-tests-ambient-state", None),
"b41cb48": ("terminal size detection must try each standard stream's descriptor in turn on every platform, because the default stream may be redirected while another one is still attached to the console", "terminal-size-probe-each-stream", None),
"60b064a": ("every branch of a character-scanning loop must advance the index, including the branch for a zero-width character with no previous character to attach to, or input that starts with a control character loops forever", "loop-must-consume-input", None),
# fiber
"07563a1": ("passwords and other secrets must be checked with a constant-time comparison, not ==, so the response time does not reveal how much of the guess matched", "constant-time-secret-compare", None),
"4dcb490": ("per-request values (start and stop times) must be local to each handler invocation, not variables declared once when the middleware is built and shared by every concurrent request, which the race detector reports", "per-call-state-isolation", "shared-mutable-global-state"),
"a95e371": ("when writing to a user-supplied log writer fails, the failure must be reported somewhere visible (standard error) instead of being dropped silently", "sink-write-failure-reported", None),
"3e8227d": ("a field updated with 64-bit atomic operations panics on 32-bit platforms when it is not 8-byte aligned; use a 32-bit value or place the 64-bit field first in the struct", "64-bit-atomic-alignment", None),
"74a20b4": ("changing the type of an exported struct field or of a public constructor's parameters (string to interface{}) breaks existing callers; keep the published signature and add new API beside it", "public-signature-backward-compat", None),
"e49880c": ("centering a name in a fixed-width banner must count characters (display columns), not bytes, or names with non-ASCII characters get the wrong padding", "display-width-wide-chars", "byte-vs-char-length"),
"9761f4e": ("code compiled only for one family of targets (BSD) referenced an undeclared variable and a mismatched integer type, unnoticed on the authors' platforms; every supported OS must be built in CI", "cross-target-build-matrix", None),
"9292a36": ("the default configuration returned when the caller passes no config must initialise the same dependent fields (lock, storage) as the path that completes a partial config, or the zero-argument constructor dereferences nil", "zero-arg-default-config-incomplete", None),
"283ef32": ("parsing text into a platform-sized unsigned integer must use the target type's real bit size, not 32, or values above 2^32 are rejected on 64-bit platforms; test each type's maximum value", "option-parser-type-match", None),
"0f58b6e": ("a listener bound before setup steps that can fail or panic must be closed on every path that does not hand it over to the server, or the socket and port stay bound", "resource-release-on-error-path", None),
# time
"5a19e53": ("subtracting two instants in either order must keep the sign of the difference; computing the absolute difference and forgetting to negate it when the first operand is earlier returns a positive duration", "reverse-subtraction-sign", None),
"9dc99dc": ("a parsed UTC offset's hours and minutes must be combined in the unit the constructor expects (minutes, not seconds), tested with an offset that has non-zero minutes such as +02:30", "time-unit-mismatch", None),
"d94faf7": ("a single write call may accept fewer bytes than it was given, so output written to a generic writer must use write-all semantics or check the count and return an error, not silently produce truncated output", "partial-write-unchecked", None),
"0e99ae7": ("the absolute value of the minimum signed value overflows; when the result saturates, every component must saturate together (return the maximum value), not only one field", "min-int-negation", None),
"6c2b602": ("code behind a target gate (wasm32 with JavaScript bindings) lost its imports in a refactor and stopped compiling unnoticed; build every supported target in CI", "cross-target-build-matrix", None),
"b3b5fb9": ("a value written as whole seconds plus a fractional part must carry its sign separately, because a negative value under one second has zero whole seconds and would lose the minus sign; the parser must restore it too", "mixed-sign-components", "negative-duration-format"),
"d0d91e9": ("code a macro generates inside the user's module must not glob-import helper names that can collide with the user's own items (serialize, deserialize); re-export exactly the names needed", "macro-hygiene-absolute-paths", None),
"c57284f": ("a format-string tokenizer must check that the character after a modifier exists before indexing it, so a truncated specifier such as '%_' returns a parse error instead of panicking", "parser-index-bounds", "return-error-not-panic"),
"f189886": ("trait implementations written for an associated-type projection can be rejected by a newer compiler's coherence rules; name the concrete type and build against the newest compiler", "toolchain-upgrade-ci-break", "upstream-behavior-change"),
"0e5b04f": ("a reusable release workflow called from another workflow must be granted id-token and contents write permissions at the call site, or trusted publishing fails", "ci-job-token-permission", None),
# regex
"a3459ce": ("case-insensitive matching must compare Unicode case-folded characters rather than the first character of an uppercase mapping, which misses characters whose fold differs from their uppercase form", "unicode-case-folding", None),
"cd05a24": ("a search loop that stops only when the position equals the end offset never stops if a step jumps past that offset (invalid UTF-8 consumed as one unit); stop as soon as the input is exhausted as well", "loop-exit-beyond-end", "loop-must-consume-input"),
"65d6bba": ("a bounded split must not yield an extra empty trailing piece when the input has fewer separators than the limit; the limit caps the number of pieces, it does not guarantee it", "bounded-split-semantics", None),
"0abcada": ("a shell test script run by CI needs `set -e` (or explicit checks after each command), or a failing command in the middle does not fail the build", "script-errexit", None),
"0c6dfbc": ("code compiled only when an optional feature is disabled kept a stale import path; build the crate with each feature turned off as well as on", "feature-combination-build", None),
"ae70b41": ("a size limit that only counts allocated memory lets a huge repetition of an empty sub-expression run for a very long time; charge a nominal cost for zero-size items so the limit still stops untrusted patterns", "limit-counts-zero-size-work", None),
"4e89cbf": ("a configured capacity should be treated as an upper bound with memory allocated on demand, not allocated in full up front for every object", "capacity-is-upper-bound", None),
"466e42c": ("a nesting limit checked only on the parser's own recursion misses nesting added without recursion (repetition operators), so the depth of the finished tree must be checked too before later recursive passes overflow the stack", "unbounded-recursion-depth", "recursion-depth-limit"),
"4ae1472": ("examples and tests with integer literals larger than a 32-bit usize do not compile on 32-bit targets; gate those lines on pointer width instead of skipping the whole example at run time", "pointer-width-dependent-size", None),
"4733e28": ("when an API accepts a caller-provided buffer of any length, copying into it must clamp to the shorter of the caller's buffer and the internal one, or an oversized buffer panics", "slice-bound-clamp", None),
}

# sha7 -> (title, body)
S = {
"58b7224": ("DeprecationWarning: invalid escape sequence '\\[' when importing rich.markup",
 "Running our test suite with `python -W error::DeprecationWarning -m pytest` fails at collection:\n\n```\n  File \".../site-packages/rich/markup.py\", line 50\n    return markup.replace(\"[\", \"\\[\")\nDeprecationWarning: invalid escape sequence \\[\n```\n\nWe turn warnings into errors in CI, so this blocks us. Python 3.8, rich 5.1."),
"f7c0783": ("inspect() crashes with TypeError on an object with a weird __call__",
 "```python\nclass NotCallable:\n    __call__ = 5\n\nclass Foo:\n    foo = NotCallable()\n\nfrom rich import inspect\ninspect(Foo(), methods=True)\n```\n\n```\nTraceback (most recent call last):\n  ...\n  File \".../inspect.py\", line 3113, in signature\nTypeError: 5 is not a callable object\n```\n\nI hit this while inspecting a mock-heavy object in the REPL. I'd expect inspect to just show what it can."),
"40dbc0a": ("Progress bar hangs forever at exit",
 "Since upgrading to 10.15.0, about one run in ten of my script never exits. It finishes the work, the progress bar reaches 100% and then the process just sits there. Ctrl+C shows it waiting in `threading.py` `join` inside `Live.stop`. Using `with Progress() as progress:` and `auto_refresh=True` (default). Going back to 10.14 makes it go away."),
"a51bca4": ("CI: 3.11 beta job runs the coverage step again and fails",
 "Since the matrix entry moved to `3.11.0-beta.5`, the 3.11 job runs \"Test with pytest (with coverage)\" and skips \"Test with pytest (no coverage)\". Coverage is known not to work on that beta, so the job is red on every push. The two `if:` conditions in pythonpackage.yml still compare against `'3.11.0-beta.4'`."),
"02dffcf": ("RecursionError when pretty printing an attrs class that references itself",
 "```python\nimport attr\nfrom rich.pretty import pprint\n\n@attr.define\nclass Node:\n    parent: object = None\n\nn = Node()\nn.parent = n\npprint(n)\n```\n\nResult: `RecursionError: maximum recursion depth exceeded while calling a Python object`. Same thing with a namedtuple that contains a list that contains the tuple, and with my own class that has `__rich_repr__`. A plain dict that contains itself prints `{...}` just fine, so I expected the same here."),
"50d2a45": ("mypy says FloatPrompt.ask returns int",
 "`x = FloatPrompt.ask(\"Ratio\")` then `reveal_type(x)` gives `builtins.int`. So `x / 2` is fine but passing it to something typed `float`... also fine, but `x.is_integer()` errors with `\"int\" has no attribute \"is_integer\"`. At runtime it's a float. rich 13.6.0, mypy 1.6."),
"59b1aca": ("Japanese text loses characters when wrapped in a narrow column",
 "Printing `\"ありがとう\"` in a Table column with width 3 (or a Panel that is narrow) drops characters. I get `あ`, `が`, `う` only, not all five. With width 4 it's fine. Looks like whenever the line break would fall in the middle of a double-width character, that character disappears instead of moving to the next line.\n\n```python\nfrom rich.console import Console\nfrom rich.text import Text\nConsole(width=3).print(Text(\"ありがとう\"))\n```"),
"7d79acb": ("Test suite fails locally with NO_COLOR=1",
 "I have `NO_COLOR=1` in my shell profile. Running `tox` on a fresh clone gives 60+ failures, all of them comparisons of expected ANSI output, e.g. `assert '\\x1b[1mfoo\\x1b[0m' == 'foo'`. `env -u NO_COLOR tox` passes. Same with FORCE_COLOR set in some CI environments. The tests should not depend on what is in my environment."),
"b41cb48": ("Console width is 80 on Windows when stdout is redirected",
 "On Windows 11, running `python script.py > out.txt` in a 200-column Windows Terminal, `Console().size` reports 80x25 for output printed to stderr (e.g. logging via RichHandler to stderr), so all my log lines wrap at 80. On Linux the same command picks up the real terminal width from stderr/stdin. Expected the same on Windows."),
"60b064a": ("Hang when printing a string that starts with \\x1b",
 "Python 3.12, rich 14.3.0:\n\n```python\nfrom rich.cells import cell_len\ncell_len(\"\\x1b\")\n```\n\nnever returns, 100% CPU. We found it because a log line containing a stray escape character froze our service. `cell_len(\"a\\x1b\")` returns normally."),
"07563a1": ("basicauth: password check time depends on the guess",
 "Measuring the response time of a route protected by `basicauth.New(basicauth.Config{Users: ...})`, a wrong password that shares a long prefix with the real one is answered measurably slower than a completely wrong one (it's a plain string compare). With enough samples this lets someone guess the password character by character. Can the default authorizer compare in constant time?"),
"4dcb490": ("WARNING: DATA RACE in logger middleware under load",
 "Running our integration tests with `go test -race` and the logger middleware enabled:\n\n```\nWARNING: DATA RACE\nWrite at 0x00c0001a2f30 by goroutine 41:\n  github.com/gofiber/fiber/v2/middleware/logger.New.func2()\n      .../middleware/logger/logger.go:152\nPrevious write at 0x00c0001a2f30 by goroutine 39:\n  github.com/gofiber/fiber/v2/middleware/logger.New.func2()\n      .../middleware/logger/logger.go:152\n```\n\nAlso the `${latency}` values in the log look wrong when requests overlap (sometimes negative). Fiber v2.5.0."),
"a95e371": ("Logger silently drops lines when the output writer fails",
 "We pass a custom `io.Writer` (a network log shipper) as `Output` to the logger middleware. When the shipper is down, its `Write` returns an error and nothing at all is printed anywhere; we only noticed hours later that logs were missing. I'd expect at least a message on stderr saying the log write failed."),
"3e8227d": ("panic: unaligned 64-bit atomic operation on Raspberry Pi (armv7)",
 "App crashes on start when using the limiter middleware with default memory storage on a 32-bit Raspberry Pi:\n\n```\npanic: unaligned 64-bit atomic operation\n\ngoroutine 7 [running]:\nruntime/internal/atomic.panicUnaligned()\nruntime/internal/atomic.Load64(...)\ngithub.com/gofiber/fiber/v2/internal/storage/memory.(*Storage).Get(...)\n```\n\nWorks on amd64. Go 1.16, GOARCH=arm GOARM=7."),
"74a20b4": ("v2.27.0 breaks code that reads fiber.Error.Message as string",
 "After updating to v2.27.0 our build fails:\n\n```\n./errors.go:31:22: cannot use e.Message (type interface {}) as type string in argument to log.Printf\n```\n\nand `fiber.NewError(code, msg)` calls in a generic helper that passes a `string` variable now have a different signature. This is a minor release; our code didn't change."),
"e49880c": ("Startup banner misaligned when AppName has non-ASCII characters",
 "With `fiber.Config{AppName: \"Café API ☕\"}` the box drawn in the startup message is broken: the right border is shifted left by a few columns compared to the other lines. With `AppName: \"Cafe API\"` it's aligned. Same with Chinese names, worse."),
"9761f4e": ("Build fails on FreeBSD: undefined: invoke",
 "`go build` of a project importing fiber v2.35.0 on FreeBSD 13:\n\n```\n# github.com/gofiber/fiber/v2/internal/gopsutil/load\ninternal/gopsutil/load/load_bsd.go:45:16: undefined: invoke\ninternal/gopsutil/load/load_bsd.go:78:22: cannot use f.forks (type uint32) as type int64 in assignment\n```\n\nLinux and macOS builds are fine."),
"9292a36": ("idempotency.New() panics on the first request",
 "Using the idempotency middleware with no config:\n\n```go\napp.Use(idempotency.New())\n```\n\nFirst POST with an `X-Idempotency-Key` header:\n\n```\npanic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation]\ngithub.com/gofiber/fiber/v2/middleware/idempotency.New.func1(...)\n```\n\nPassing `idempotency.Config{}` with anything set works. Expected the zero-argument form to use sensible defaults."),
"283ef32": ("c.Query with a uint default returns the default for large values",
 "`fiber.Query[uint](c, \"id\", 0)` returns 0 for `?id=5000000000` on linux/amd64, although that fits easily in a uint. `?id=4294967295` works, `?id=4294967296` gives the default. uint64 works fine. Fiber v3 beta."),
"0f58b6e": ("Port stays in use after Listen returns an error",
 "If our `BeforeServeFunc` returns an error (e.g. a migration failed), `app.Listen(\":8080\", ...)` returns that error as expected, but the port stays bound for the rest of the process's life. Our supervisor retries `Listen` in the same process and every retry then fails with `bind: address already in use`. `lsof` shows the socket still open. Similar when an OnListen hook panics and we recover."),
"5a19e53": ("Instant subtraction returns positive duration when it should be negative",
 "```rust\nlet now = Instant::now();\nlet later = now + Duration::seconds(5);\nassert_eq!(now - later, Duration::seconds(-5)); // fails: got 5s\n```\n\n`later - now` is 5s (fine), but `now - later` is also 5s. The docs say the result can be negative. time 0.2.11."),
"9dc99dc": ("RFC 3339 offset +02:30 comes out as +00:02:30",
 "`OffsetDateTime::parse(\"2020-09-08T08:44:31+02:30\", Format::Rfc3339)` returns a value whose offset is 2 minutes 30 seconds instead of 2 hours 30 minutes. `+01:00` becomes one minute as well, so every converted UTC time is off by hours. Formatting the same value back gives `+00:02:30`. time 0.2.19."),
"d94faf7": ("Formatting into a fixed buffer silently truncates",
 "I format an `OffsetDateTime` into a `&mut [u8]` of 16 bytes (via `format_into`). Instead of an error I get `Ok(n)` and a buffer with a truncated timestamp (`2021-09-05T22:09`). I'd expect an error when the output doesn't fit, like `write!` gives `failed to write whole buffer`."),
"0e99ae7": ("Duration::abs on Duration::MIN returns an invalid duration",
 "```rust\nlet d = Duration::new(i64::MIN, 0);\nprintln!(\"{:?}\", d.abs());\n```\n\nThe seconds saturate at `i64::MAX` but the nanoseconds part is whatever it was, so I get something that isn't equal to `Duration::MAX` and compares oddly. Expected `abs()` of the minimum to be `Duration::MAX`. Found by a proptest."),
"6c2b602": ("time 0.3.32 fails to compile for wasm32-unknown-unknown with wasm-bindgen feature",
 "```\n$ cargo build --target wasm32-unknown-unknown --features wasm-bindgen\nerror[E0433]: failed to resolve: use of undeclared type `Millisecond`\n   --> time/src/offset_date_time.rs:1615:40\nerror[E0599]: no method named `cast_signed` found for type `i32` in the current scope\n   --> time/src/sys/local_offset_at/wasm_js.rs\n```\n\n0.3.31 builds fine."),
"b3b5fb9": ("Negative durations under one second serialize without a minus sign",
 "With `serde-human-readable`, `Duration::nanoseconds(-123)` serializes to `\"0.000000123\"`, the same as `+123ns`. Deserializing `\"-0.000000123\"` also gives a positive duration. Durations of -1.5s are fine (`\"-1.500000000\"`). We store timing offsets as JSON and small negative ones come back flipped."),
"d0d91e9": ("serde::format_description! conflicts with my own serialize function",
 "```rust\nfn serialize() {}\n\ntime::serde::format_description!(my_format, OffsetDateTime, \"[year]-[month]-[day]\");\n```\n\n```\nerror[E0659]: `serialize` is ambiguous\n   = note: ambiguous because of a conflict between a name from a glob import and an outer scope during import or macro resolution\n```\n\nRenaming my function makes it go away, but I can't always rename things in the module where I need the format."),
"c57284f": ("parse_strftime_borrowed panics on \"%_\"",
 "We accept user-provided strftime formats. `time::format_description::parse_strftime_borrowed(\"%_\")` panics:\n\n```\nthread 'main' panicked at time/src/format_description/parse/strftime.rs:79:58:\nindex out of bounds: the len is 2 but the index is 2\n```\n\nSame for `\"%-\"` and `\"%0\"`. I expected an `InvalidFormatDescription` error like for other bad input."),
"f189886": ("E0119 conflicting implementations when building with Rust 1.95",
 "Our project (uses cookie + actix-web) stopped building after updating the toolchain:\n\n```\nerror[E0119]: conflicting implementations of trait `From<...>` for type `...`\n  --> time/src/format_description/parse/format_item.rs:703:9\n```\n\nSame lockfile builds with 1.94. Blocking our toolchain upgrade."),
"0e5b04f": ("Release job fails to publish on tag push",
 "The tag push for the last release ran the powerset workflow, checks passed, but the release job failed at the publish step with an OIDC error (`Unable to get ACTIONS_ID_TOKEN_REQUEST_URL env variable`). Nothing got published to crates.io; I had to publish manually."),
"a3459ce": ("(?i) doesn't match some case variants",
 "Case-insensitive matching misses characters whose lowercase/uppercase pairs aren't simple. For example `Regex::new(\"(?i)ß\")` doesn't match `ẞ`, and `(?i)k` doesn't match the Kelvin sign `K` (U+212A), and Greek final sigma `ς` doesn't match `Σ`. PCRE and Python's `re` with IGNORECASE+UNICODE match these."),
"cd05a24": ("is_match hangs forever on some invalid UTF-8 input with bytes::Regex",
 "Reported from ripgrep: searching a binary-ish file with a Unicode pattern never finishes, 100% CPU.\n\n```rust\nlet re = regex::bytes::Regex::new(r\"\\p{L}+\").unwrap();\nre.is_match(b\"\\xFF\\xFE...\"); // never returns\n```\n\nCouldn't reproduce with valid UTF-8 haystacks. regex 1.1.5; 1.1.2 was fine."),
"65d6bba": ("splitn returns an extra empty string",
 "```rust\nlet re = Regex::new(\"-\").unwrap();\nlet v: Vec<&str> = re.splitn(\"a\", 2).collect();\nassert_eq!(v, vec![\"a\"]); // got [\"a\", \"\"]\n```\n\n`str::splitn(2, '-')` on `\"a\"` gives `[\"a\"]`. With `\"a-b\"` both give `[\"a\", \"b\"]`."),
"0abcada": ("CI green even though tests fail in ./test",
 "Looking at a recent CI log, `cargo test --no-default-features` inside the `./test` script failed with a compile error, but the job still finished green. The script keeps running after a failing command and its exit status is that of the last command. Same for `regex-syntax/test`."),
"0c6dfbc": ("Build fails with default-features = false, features = [\"std\"]",
 "```toml\nregex = { version = \"1.5.3\", default-features = false, features = [\"std\", \"unicode\"] }\n```\n\n```\nerror[E0432]: unresolved import `syntax`\n --> src/literal/mod.rs:9:9\n  |\n9 |     use syntax::hir::literal::Literals;\n  |         ^^^^^^ use of undeclared crate or module `syntax`\n```\n\nWith default features it compiles."),
"ae70b41": ("Regex::new takes minutes on a tiny pattern",
 "We let users supply search patterns. The pattern `(?:){294967295}` (20 characters) makes `Regex::new` spin for many minutes at 100% CPU before finally returning Ok. The size limit doesn't seem to kick in. Other huge repetitions like `a{294967295}` fail quickly with \"compiled regex exceeds size limit\"."),
"4e89cbf": ("Memory usage jumped after upgrading to 1.9",
 "Our service compiles a few thousand small regexes (one per routing rule). After upgrading regex from 1.8.4 to 1.9.0, RSS went from ~150 MB to ~900 MB. A heap profile shows most of it allocated in `regex_automata::nfa::thompson::backtrack` — roughly 256 KB per regex, even for regexes that only ever search short strings."),
"466e42c": ("regex-lite: stack overflow on a fuzzer-generated pattern",
 "OSS-Fuzz found that `regex_lite::Regex::new` on a ~5 KB pattern made mostly of nested repetition operators (`a**********...` with groups) crashes with\n\n```\nthread 'main' has overflowed its stack\nfatal runtime error: stack overflow\n```\n\nThe nest limit is the default. I expected an error saying the pattern is too deeply nested."),
"4ae1472": ("Doctests don't compile on i686 / armv7",
 "Running `cargo test --doc` for the 32-bit targets in our distro build:\n\n```\nerror: literal out of range for `usize`\n  --> src/regex/string.rs:2044:26\n   |\n   | assert_eq!(None, locs.get(34973498648));\n```\n\nThe examples return early at runtime on non-64-bit, but they still have to compile. Same in regex-automata's captures docs."),
"4733e28": ("onepass DFA panics when given more slots than the regex has",
 "```rust\nlet re = onepass::DFA::new(r\"(a){0}\")?;\nlet mut cache = re.create_cache();\nlet mut slots = vec![None; 10];\nre.try_search_slots(&mut cache, &Input::new(\"a\"), &mut slots)?;\n```\n\n```\nthread 'main' panicked at 'source slice length (1) does not match destination slice length (9)'\n```\n\nThe docs say any number of slots may be provided, and the PikeVM accepts the same call."),
}

OFF = [
("Textualize/rich", "Support OSC 8 hyperlinks in export_svg", "`console.export_html()` keeps links as `<a>` tags, but `export_svg()` drops them. Could the SVG export wrap linked text in `<a xlink:href>` so docs screenshots stay clickable?", "feature"),
("Textualize/rich", "How do I make RichHandler print errors in red but keep the rest plain?", "I only want the level name coloured for ERROR records, and the message itself unstyled. Is there a hook for per-level message style, or should I subclass `RichHandler.render_message`?", "question"),
("Textualize/rich", "Docs: document which env vars rich reads", "The console docs mention NO_COLOR and FORCE_COLOR in different places, and TTY_COMPATIBLE / COLUMNS / JUPYTER_COLUMNS elsewhere. A single table of every environment variable and what it does would help people debugging CI output.", "docs"),
("Textualize/rich", "Add a progress column that shows items per second", "`TransferSpeedColumn` shows bytes/s. For non-byte tasks I'd like `123.4 it/s` like tqdm. Happy to send a PR if you agree on the name `RateColumn`.", "feature"),
("Textualize/rich", "Thanks for rich, and a question about the roadmap for Python 3.8", "We've used rich in our CLI for years. Just wondering whether 3.8 support will be dropped in the next major; we're planning our own support window and want to line up with you.", "discussion"),
("gofiber/fiber", "Feature: allow custom key generator per route in limiter", "Right now the limiter uses one `KeyGenerator` for the whole middleware instance. I'd like `/login` limited by username and everything else by IP without registering two middlewares. Could the config accept a per-route override?", "feature"),
("gofiber/fiber", "How to return a JSON error body from a custom ErrorHandler for 404s?", "When no route matches, I want `{\"error\":\"not found\"}` instead of the plain text `Cannot GET /foo`. Is the custom `ErrorHandler` the right place, and how do I tell a 404 apart from other `*fiber.Error` values?", "question"),
("gofiber/fiber", "Docs: migration guide misses the new Listen config", "The v2 to v3 migration guide explains the router changes but not how `app.Listen(addr, fiber.ListenConfig{...})` replaces the old `Prefork`/`DisableStartupMessage` app config. A short before/after example would help.", "docs"),
("gofiber/fiber", "chore: enable the govet fieldalignment check in golangci-lint", "We already align hot structs by hand. Turning on `fieldalignment` would make the lint step fail on new structs that waste padding instead of relying on reviewers.", "chore"),
("gofiber/fiber", "Would you accept a Server-Timing middleware?", "Something that records handler duration and lets handlers add named metrics, emitted as a `Server-Timing` header. I have a working version in our codebase and can contribute it to contrib or core, whichever you prefer.", "feature"),
("time-rs/time", "Add Date::last_day_of_month", "I often need the last day of the current month. Today I compute `date.replace_day(1)?.next month - 1 day`. A helper like `Date::last_day_of_month()` (or `Month::length(year)` exposed on Date) would be convenient.", "feature"),
("time-rs/time", "Is the local-offset lookup safe in a multi-threaded program?", "The docs say `OffsetDateTime::now_local()` may return an error in multi-threaded programs on some OSes. What exactly is the soundness concern, and is it safe to call once in `main` before spawning threads and cache the offset?", "question"),
("time-rs/time", "Question: format_description! vs parse at runtime performance", "Is there a measurable difference between the `format_description!` macro and `format_description::parse` called once and stored in a `OnceLock`? Trying to decide which to use in a logging hot path.", "question"),
("time-rs/time", "chore: run cargo-semver-checks in CI", "Given how many downstream crates pin time, running `cargo semver-checks` on PRs would catch accidental public API breakage before a release instead of after.", "chore"),
("time-rs/time", "Docs: example for serde with custom format in a struct", "The serde module docs show the macro but not a complete struct with `#[serde(with = ...)]` using an optional field. An end-to-end example would save newcomers from a confusing compile error about missing `option` module.", "docs"),
("rust-lang/regex", "Feature: expose the pattern's named groups as an iterator of (index, name)", "`capture_names()` yields `Option<&str>` in order. I'd like a helper that yields only the named ones with their index, to build a lookup table without `enumerate().filter_map(...)` boilerplate.", "feature"),
("rust-lang/regex", "Why does \\b behave differently from PCRE on non-ASCII letters?", "With Unicode enabled, `\\bé` matches at the start of `été` while my PCRE tool doesn't. I assume this is the Unicode word boundary definition; is there a flag to get ASCII-only word boundaries without disabling Unicode entirely?", "question"),
("rust-lang/regex", "Support lookbehind for fixed-length patterns?", "I know arbitrary look-around is out of scope for linear-time guarantees, but would fixed-length lookbehind (`(?<=ab)c`) be acceptable? It's the most common thing I miss when porting Python patterns; right now I have to post-filter matches.", "discussion"),
("rust-lang/regex", "chore: bump MSRV note in README", "The README still states the old minimum Rust version while Cargo.toml's `rust-version` was raised. Small fix to keep them consistent; I can open a PR.", "chore"),
("rust-lang/regex", "Add RegexSet::matches_at", "`Regex` has `is_match_at`/`find_at` for starting at an offset with look-behind context, but `RegexSet` doesn't. A `matches_at(haystack, start)` would let our tokenizer avoid re-slicing and keep `^`/`\\b` semantics correct.", "feature"),
]

def main():
    assert set(L) == set(by) == set(S), (set(by) ^ set(L), set(by) ^ set(S))
    with open(os.path.join(HERE, "..", "lessons.jsonl"), "w") as f:
        for fx in fixes:
            les, k, k2 = L[fx["sha"][:7]]
            f.write(json.dumps({"repo": fx["repo"], "sha": fx["sha"], "lesson": les, "key": k, "key2": k2}, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "..", "symptoms.jsonl"), "w") as f:
        for fx in fixes:
            t, b = S[fx["sha"][:7]]
            f.write(json.dumps({"sha": fx["sha"], "repo": fx["repo"], "title": t, "body": b}, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "..", "offtopic-issues.jsonl"), "w") as f:
        for r, t, b, k in OFF:
            f.write(json.dumps({"repo": r, "title": t, "body": b, "kind": k}, ensure_ascii=False) + "\n")

main()
