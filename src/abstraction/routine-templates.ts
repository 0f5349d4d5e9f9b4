/**
 * Fixed, hand-written validation-routine templates, one per routine kind. The rule-based
 * abstractor builds every insight from these plus generic qualifiers, so an insight can never
 * quote a path, symbol or string of the fix it came from.
 */
import type { RoutineKind } from '../core/routines.js';

export interface RoutineTemplate {
  /** a human name of the failure class, e.g. "empty and boundary input" */
  label: string;
  title: string;
  /** one sentence */
  description: string;
  /** what to check, then why it would have caught the source fix's bug */
  check: string;
  why: string;
  /** a clause used when this routine is a secondary aspect of another routine's insight */
  also: string;
  /** the workflow step that exercises this routine */
  step: string;
}

/** The template of each kind; for a kind with facets (src/core/routines.ts), of its first facet. */
export const ROUTINE_TEMPLATES: Record<RoutineKind, RoutineTemplate> = {
  'edge-input': {
    label: 'empty, null and missing input',
    title: 'Test the empty, null and missing inputs of the code you change',
    description: 'Code written for typical values breaks on an empty string or list, a null or missing value, or zero.',
    check:
      'Before calling a fix done, add test cases that pass the changed code an empty string and an empty collection, a null, undefined or missing value, and zero, and assert a sensible result or a clear error rather than a crash.',
    why: 'Tests that only use typical values let this kind of bug through; one empty-input case fails before such a fix and passes after it.',
    also: 'include empty, null and missing values in that test',
    step: 'Add test cases for empty, null, missing and zero input.',
  },
  'encoding-locale': {
    label: 'time zones and DST',
    title: 'Run date and time tests in several time zones and across DST changes',
    description:
      "Date code can be right in the author's time zone and wrong in another one, at a DST change or near midnight UTC.",
    check:
      'Run the affected tests with the process time zone set far from UTC on both sides (such as UTC+13 and UTC-10), with dates on both sides of a DST change and near midnight, and compare instants rather than formatted strings.',
    why: "Such bugs pass every test run in the author's own zone and fail for users elsewhere.",
    also: 'repeat it in another time zone and across a DST change',
    step: 'Run the tests again under other time zones and across a DST change.',
  },
  'platform-compat': {
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
  'concurrency-async': {
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
  'performance-resource': {
    label: 'leaks and resource cleanup',
    title: 'Assert that resources are released after use and on every early exit',
    description:
      'Listeners, handles, processes and memory that are not released leak slowly and surface only under load or in long runs.',
    check:
      'Add a test that counts listeners, open handles or child processes before and after the operation, also when it fails or is aborted, and assert they return to the starting value; bound hot paths with a simple budget in a benchmark.',
    why: 'A leak shows as a count that grows with every call, which such a test catches at once.',
    also: 'check that listeners and handles are released afterwards',
    step: 'Count listeners, handles and processes before and after, including on failure and abort.',
  },
  'error-handling': {
    label: 'swallowed errors',
    title: 'Test the failure path: errors must reach the caller, not vanish',
    description: 'Errors that are swallowed, ignored or masked by a later error leave callers with silent failures.',
    check:
      'For each changed operation, add a test that forces a dependency to fail and assert that the caller receives the original error, that no later error masks it, and that nothing keeps running as if it had succeeded.',
    why: 'Tests that only exercise success cannot catch a swallowed error.',
    also: 'assert the error that reaches the caller when it fails',
    step: 'Force each dependency to fail and assert the error reaches the caller.',
  },
  'security-validation': {
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
  'api-compat': {
    label: 'public behaviour and backward compatibility',
    title: 'Pin the public behaviour with tests before changing it',
    description: 'A change that looks internal can break callers that rely on the previous behaviour of a public API.',
    check:
      'Before refactoring or tightening behaviour, write tests that use the public API exactly as callers do (arguments, return values, errors raised) and keep them passing; treat any change to them as a breaking change with a deprecation path.',
    why: 'A regression of public behaviour fails such a test the moment it is introduced.',
    also: 'keep the previous public behaviour covered by a test',
    step: 'Write tests of the public API as callers use it before changing the code.',
  },
  'dependency-compat': {
    label: 'dependency and toolchain versions',
    title: 'Test against the dependency and toolchain versions you allow, oldest and newest',
    description:
      'A new major version of a dependency or toolchain can remove an API or change a default, breaking code that still installs.',
    check:
      'When a version range allows a new release, run the suite against the newest and the oldest allowed versions, read the changelog for removals and deprecations, and land the lockfile change together with the code that adapts to it.',
    why: 'A scheduled run on the newest versions catches such a break before users upgrade.',
    also: 'run it against the newest allowed dependency versions too',
    step: 'Run the suite against the oldest and newest allowed dependency and toolchain versions.',
  },
  'type-check': {
    label: 'types and type declarations',
    title: 'Run the type checker and test the published type declarations',
    description:
      'Type declarations drift from runtime behaviour, so users get errors where they should not, or none where they should.',
    check:
      'Run the type checker in CI and add type-level tests that assert what callers may and may not pass (nullable values, overloads, return types) against the declarations users import.',
    why: 'A wrong signature fails a type test that uses the API the way its users do.',
    also: 'add a type-level test for the signature',
    step: 'Run the type checker and add type-level tests of the public signatures.',
  },
  'lint-format': {
    label: 'linter and formatter findings',
    title: 'Keep the linter and formatter as a failing CI step',
    description:
      'Linter and vet findings point at real defects such as unused values or shadowing, and new tool versions add rules.',
    check:
      'Run the linter, vet tool and formatter before pushing and as a required CI step with pinned versions, and fix new warnings when the tool is upgraded rather than silencing them.',
    why: 'Such a warning is reported before merging instead of after.',
    also: 'keep the linter clean on the changed code',
    step: 'Run the linter, vet tool and formatter and fix every finding.',
  },
  'build-packaging': {
    label: 'builds and packaging',
    title: 'Build and install the package from a clean checkout as a test',
    description:
      'Build scripts, bundlers and compile targets can fail or ship the wrong output even when the unit tests pass.',
    check:
      'Add a CI step that builds from a clean checkout, packs the artifact, installs it into an empty project on the lowest supported target and imports it, failing on any compiler or bundler error.',
    why: 'Unit tests that run from source cannot catch a build or packaging break.',
    also: 'build and install the package from a clean checkout',
    step: 'Build from a clean checkout, pack, install and import the artifact.',
  },
  'ci-config': {
    label: 'CI workflows',
    title: 'Validate CI workflow changes in a branch run before relying on them',
    description: 'CI configuration is code: a tool version, a renamed action or a matrix entry can break every build.',
    check:
      'After editing CI workflows, run them on a branch and check that every job of the matrix actually ran and passed; pin tool and action versions and lint the workflow files.',
    why: 'A broken pipeline hides every other failure until it is repaired.',
    also: 'make sure CI actually runs that check',
    step: 'Run the edited workflows on a branch and check every job ran and passed.',
  },
  'config-env': {
    label: 'configuration sources',
    title: 'Test every source of a setting and their precedence',
    description:
      'Settings come from defaults, config files, environment variables and command-line flags, and their precedence breaks in the combinations nobody tested.',
    check:
      'Add tests that set the option through each source (unset, default, config file, environment variable, flag, empty value) and in conflicting combinations, asserting the documented precedence and the resulting value.',
    why: 'A test of the option as users actually set it catches a wrong default or precedence.',
    also: 'set the option through each source in that test',
    step: 'Test the option unset, by default, by file, by environment and by flag.',
  },
  'data-migration': {
    label: 'schema migrations',
    title: 'Run migrations against a fresh and a populated database',
    description: 'Schema migrations can work on an empty database and fail on real data, or fail to roll back.',
    check:
      'After touching a migration, run the migration tests against a fresh database and one seeded with representative data, apply and roll back, and compare the resulting schema with the expected one.',
    why: 'Such a failure shows on the populated run, not on the empty one.',
    also: 'run the migrations on a populated database',
    step: 'Apply and roll back migrations on a fresh and on a seeded database.',
  },
  'regression-test': {
    label: 'regressions',
    title: 'Pin every fix with a test that fails before it and passes after',
    description: 'A fix without a failing-first test can silently regress later.',
    check:
      'Reproduce the reported problem as an automated test first, watch it fail, then apply the fix and watch it pass; keep the test next to the code it guards.',
    why: 'The failing-first test is what keeps the bug from coming back.',
    also: 'keep a failing-first test for it',
    step: 'Reproduce the problem as a failing test before changing the code.',
  },
};

/** The templates of the other facets, keyed `kind/facet`. */
export const FACET_TEMPLATES: Record<string, RoutineTemplate> = {
  'edge-input/boundary': {
    label: 'boundary values',
    title: 'Test the boundaries: first, last, largest, smallest and one past the end',
    description:
      'Off-by-one errors, overflows and out-of-range indexes hide at the edges of a range, not in its middle.',
    check:
      'For every range the change touches, add test cases at the minimum, the maximum, one below and one above each, a single element and a very large input, and assert the exact result.',
    why: 'A boundary case fails before such a fix and passes after it, where typical values pass both times.',
    also: 'include the boundary values of each range in that test',
    step: 'Add test cases at each boundary: minimum, maximum, one past either end, a single element.',
  },
  'edge-input/malformed': {
    label: 'malformed inputs',
    title: 'Feed the code malformed and unusual input, not only well-formed examples',
    description:
      'Parsers and validators fail on stray whitespace, unexpected characters, partial values and inputs that look valid but are not.',
    check:
      'Add test cases with leading and trailing whitespace, unexpected characters, truncated and over-long values and almost-valid input, and assert that each is either handled exactly or rejected with a clear error.',
    why: 'Well-formed examples pass before and after such a fix; one malformed case tells them apart.',
    also: 'add malformed and almost-valid input to that test',
    step: 'Add test cases with whitespace, unexpected characters and almost-valid input.',
  },
  'encoding-locale/text': {
    label: 'text encodings',
    title: 'Test text handling with multi-byte characters and other encodings',
    description:
      'Code that counts, slices or decodes text can be right for ASCII and wrong for multi-byte characters, another encoding or other line endings.',
    check:
      'Add test cases with non-ASCII and multi-byte text (accents, CJK, emoji), invalid byte sequences and CRLF line endings, and assert on lengths in bytes and in characters and on the exact decoded text.',
    why: 'ASCII-only tests pass before and after such a fix; one multi-byte case tells them apart.',
    also: 'repeat it with multi-byte text',
    step: 'Add test cases with multi-byte text, invalid bytes and other line endings.',
  },
  'encoding-locale/locale': {
    label: 'locales',
    title: 'Run locale-dependent code under more than one locale',
    description:
      'Formatting, sorting and parsing that depend on the locale can be right in English and wrong in other locales.',
    check:
      'Run the affected tests under at least one non-English locale with different number, date and sorting rules, and assert on the localised output rather than on an English string.',
    why: "A test run only in the author's locale cannot catch such a bug.",
    also: 'repeat it under another locale',
    step: 'Run the tests under a non-English locale.',
  },
  'platform-compat/runtime': {
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
  'concurrency-async/cancel': {
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
  'performance-resource/slow': {
    label: 'slow paths and large inputs',
    title: 'Put a budget on the hot path and measure it',
    description:
      'Work that grows faster than its input, or is repeated needlessly, stays invisible with small test data.',
    check:
      'Add a benchmark or a test with realistically large input for the changed path, with a generous but fixed budget for time, memory or the number of processes or calls, and run it in CI.',
    why: 'Small test inputs pass before and after such a fix; a sized input with a budget tells them apart.',
    also: 'run it with a large input and a budget',
    step: 'Add a benchmark with a large input and a fixed budget.',
  },
  'error-handling/report': {
    label: 'error messages and exit codes',
    title: 'Assert how errors are reported: type, message, stream and exit status',
    description:
      'An error reported with the wrong type, an unreadable message, on the wrong stream or with the wrong exit status misleads users and scripts.',
    check:
      'For each failure the change can produce, add a test that asserts the error type, a useful message, the output stream (stderr, not stdout) and the exit status or response code, and that the program reports instead of crashing.',
    why: 'A test that only checks that something failed cannot catch an error reported in the wrong form or place.',
    also: 'assert the type, message and stream of the error',
    step: 'Assert error type, message, stream and exit status for each failure.',
  },
  'config-env/parsing': {
    label: 'option values',
    title: 'Test how each option value is parsed, including its unusual forms',
    description:
      'Option parsing breaks on short and long forms, repeated flags, missing or empty values and values that look like flags.',
    check:
      'Add tests for each option in its short and long form, with an equals sign and with a separate value, repeated, with an empty or missing value and with out-of-range values, and assert the parsed value or a clear usage error.',
    why: 'Tests that pass options only in their usual form cannot catch such a parsing bug.',
    also: 'pass the option in each of its forms in that test',
    step: 'Test each option in short and long form, repeated, empty and missing.',
  },
};

/** The template of a routine kind, narrowed to a facet when that facet has its own. */
export function templateFor(kind: RoutineKind, facet?: string): RoutineTemplate {
  return (facet === undefined ? undefined : FACET_TEMPLATES[`${kind}/${facet}`]) ?? ROUTINE_TEMPLATES[kind];
}
