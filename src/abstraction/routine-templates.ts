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

export const ROUTINE_TEMPLATES: Record<RoutineKind, RoutineTemplate> = {
  'edge-input': {
    label: 'empty, missing and boundary input',
    title: 'Test the empty, missing and boundary inputs of the code you change',
    description:
      'Bugs hide in inputs nobody tried: empty or null values, missing arguments, zero, the first and last positions, and malformed text.',
    check:
      'Before calling a fix done, add a test that feeds the changed code an empty value, a missing or null value, zero, the boundary positions and malformed input, and assert the result or a clear error.',
    why: 'Tests that only use typical values let this kind of bug through; one boundary case fails before such a fix and passes after it.',
    also: 'include empty, null and boundary values in that test',
    step: 'Add test cases for empty, null, zero, boundary and malformed input.',
  },
  'encoding-locale': {
    label: 'encodings, time zones and locales',
    title: 'Check text and time handling across encodings, time zones and locales',
    description:
      "Code that handles text or dates can be right on the author's machine and wrong for non-ASCII text, another time zone, a DST change or another locale.",
    check:
      'Run the affected tests with non-ASCII and multi-byte text, with a time zone far from UTC and a date across a DST change, and with a non-English locale; compare bytes and instants rather than formatted strings.',
    why: "Such bugs pass every test run in the author's own zone, encoding and locale and fail for users elsewhere.",
    also: 'repeat it with non-ASCII text and another time zone or locale',
    step: 'Run the tests again under another time zone, locale and with multi-byte text.',
  },
  'platform-compat': {
    label: 'operating systems and runtime versions',
    title: 'Run the change on every platform and runtime version you support',
    description:
      'Paths, shells, file systems and runtime versions differ between operating systems, so code that passes on one can break on another.',
    check:
      'When code touches paths, processes, shells, the terminal or a runtime API, run its tests on each supported operating system and on the oldest and newest supported runtime version, and build paths with the platform path helpers.',
    why: 'A test matrix across platforms shows this kind of failure before users on the other platform do.',
    also: 'run that test on every supported operating system and runtime version',
    step: 'Run the suite in a matrix of operating systems and runtime versions.',
  },
  'concurrency-async': {
    label: 'races, ordering, timeouts and cancellation',
    title: 'Test concurrent and interrupted operations, not only the happy sequence',
    description:
      'Races, event ordering, timeouts and cancellation only show up when operations overlap or stop part-way.',
    check:
      'Write a test that runs the operation concurrently, cancels or aborts it part-way and lets it time out, and assert that it completes exactly once with a consistent state; run it repeatedly, under a race detector where one exists.',
    why: 'A single sequential test cannot reveal an ordering bug; overlapping and interrupted runs do.',
    also: 'run that test concurrently and with cancellation',
    step: 'Add a test that overlaps, cancels and times out the operation, and run it repeatedly.',
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
    label: 'error paths',
    title: 'Test the failure path: errors must surface once, in the right place',
    description:
      'Errors that are swallowed, masked by a later error or reported on the wrong channel leave callers with silent or confusing failures.',
    check:
      'For each changed operation, add a test that forces a dependency to fail and assert that the caller receives the original error and message, that the process responds or exits with the right status, and that nothing is reported twice or on the wrong stream.',
    why: 'Tests that only exercise success cannot catch a mishandled error.',
    also: 'assert the error that surfaces when it fails',
    step: 'Force each dependency to fail and assert the error, status and output channel.',
  },
  'security-validation': {
    label: 'untrusted input',
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
    label: 'CI configuration',
    title: 'Validate CI workflow changes in a branch run before relying on them',
    description: 'CI configuration is code: a tool version, a renamed action or a matrix entry can break every build.',
    check:
      'After editing CI workflows, run them on a branch and check that every job of the matrix actually ran and passed; pin tool and action versions and lint the workflow files.',
    why: 'A broken pipeline hides every other failure until it is repaired.',
    also: 'make sure CI actually runs that check',
    step: 'Run the edited workflows on a branch and check every job ran and passed.',
  },
  'config-env': {
    label: 'options, flags, environment and defaults',
    title: 'Test every way an option can be set: default, flag, environment, config file',
    description:
      'Options come from defaults, command-line flags, environment variables and config files, and their parsing and precedence break in combinations nobody tested.',
    check:
      'Add tests that set the option through each source (unset, default, flag, environment variable, config file, empty value) and in conflicting combinations, asserting the documented precedence and the parsed value.',
    why: 'A test of the option as users actually set it catches a wrong default or precedence.',
    also: 'set the option through each source in that test',
    step: 'Test the option unset, by default, by flag, by environment and by config file.',
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
