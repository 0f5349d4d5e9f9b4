/** The routine kind dependency-compat (dependency and toolchain versions): its cues, routines and lessons. */
import { defineKind } from '../entry.js';
import { TO_OWN_VERSION } from './api-compat.js';

/** "upgrade" and its forms, unless to a version named alone (the code's own release). */
const UPGRADE_OF_A_PACKAGE = String.raw`|\bupgrad\w*\b(?! ${TO_OWN_VERSION}|[,.;:])`;

export const dependencyCompat = defineKind({
  kind: 'dependency-compat',
  template: {
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
  learnedRule: 'Test the {p} against the oldest and newest dependency versions allowed',
  vocabulary: 'dependency version upgrade compatibility lockfile',
  textCues: [
    // a name another package no longer exports
    [/\bcannot import name\b.{0,60}\bfrom\b|\bhas no (exported )?member\b/i, 1],
    // upgrading to a version named alone (not a package) is the code's own release: an API change
    [
      new RegExp(String.raw`\bdependenc(y|ies)\b|\bdeps\b${UPGRADE_OF_A_PACKAGE}|\bpeer[- ]?dep|\block ?files?\b`, 'i'),
      1,
    ],
    [/\bdeprecat(ed|ions?)\b/i, 0.6],
    [
      /\b(broken|breaks?|broke|failing|fails?) (by|with|after|since) .{0,40}\b(updates?|upgrades?|releases?|versions?)\b/i,
      1,
    ],
    [/\bv\d+(\.\d+)*\+?\b|\b[a-z][\w.-]* \d+\.\d+\b/i, 0.5],
    [/\btoolchain\b|\bnew (version|release)s?\b|\bcompatib(le|ility)\b|\bnightly\b|\bmsrv\b/i, 0.5],
    // the dependency tree moved under the code: an update, a lock file, a pin that helps
    [
      /\b(cargo|bundle|bundler|npm|yarn|pnpm|pip|poetry|composer|brew) (update|upgrade)\b|\bgo get -u\b|\brustup update\b|\blatest stable\b|\b(without any|no) changes? on our (side|end)\b|\bnothing changed on our (side|end)\b|\b(cargo|gemfile|poetry|composer|yarn|pnpm-lock)\.lock\b|\bpackage-lock\b|\bgo\.sum\b/i,
      1.2,
    ],
    // a package named between "bump" and its versions ("bumping lodash from 4.17.20 to 4.17.21"); a
    // user who updates an app by name ("updating Chirpboard from 3.4 to 4.0") names the code's own release
    [
      /\bbump(ed|ing|s)? (?!to\b|from\b|the\b|our\b|my\b|this\b|it\b)[a-z@][\w./@-]* (from v?\d[\w.]* )?to v?\d[\w.]*/i,
      1.2,
    ],
    // a version that came in (a pin that helps is as often a runtime's, in a matrix)
    [/\b(pulled|pulls|brought|dragged) in\b/i, 0.6],
    // a package manager refusing the dependency tree
    [/\beresolve\b|\bunable to resolve dependency tree\b|\bconflicting peer\b|\bcould not resolve dependenc/i, 1.5],
  ],
  files: {
    evidence: 'dependency manifests or lockfiles',
    cues: [
      [
        /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|go\.sum|poetry\.lock|Pipfile\.lock|Gemfile\.lock|composer\.lock)$/i,
        0.8,
      ],
      [
        /(^|\/)(package\.json|Cargo\.toml|go\.mod|requirements[\w-]*\.txt|pyproject\.toml|Gemfile|composer\.json)$/i,
        0.4,
      ],
    ],
  },
  lessons: [
    {
      id: 'dependency-upgrade',
      title: 'Test against the newest and oldest dependency versions you allow',
      description:
        'A new major version of a dependency removes an API, changes a default or deprecates what the code uses, and a version range lets it in.',
      check:
        'Run the suite against the newest and the oldest allowed versions of each dependency in CI, read the changelog for removals and deprecations, and land the version change with the code that adapts to it.',
      cues: [
        [
          new RegExp(
            String.raw`\bdependenc(y|ies)\b|\bdeps\b${UPGRADE_OF_A_PACKAGE}|\bpeer[- ]?dep\w*|\block ?files?\b`,
            'i',
          ),
          1,
        ],
        [/\bdeprecat\w*\b/i, 0.8],
        [/\bv\d+(\.\d+)*\+?\b|\bversion \d+\b|\bnew (major )?version\b|\b[a-z][\w-]* \d+\.\d+\b/i, 0.5],
        [/\bcompatib\w*\b/i, 0.5],
        [/\b[a-z][\w.-]* ?(>=|<=|\^|~=|==|~>) ?v?\d+\.\d+/i, 1],
        [
          /\b(broken|breaks?|broke|fail\w*) (by|with|after|since) (an? |the )?(latest |newest |new )?[\w.-]+ (update|upgrade|release|bump)s?\b|\b(with|on|against|after) (the )?(latest|newest|newer) (versions? of )?[a-z][\w.-]*/i,
          1,
        ],
      ],
    },
  ],
});
