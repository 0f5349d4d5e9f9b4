/** The routine kind ci-config (CI workflows): its cues, routines and lessons. */
import { defineKind } from '../entry.js';

/** CI itself named: a CI job or run, a broken CI, GitHub Actions, Travis … */
const CI_NAMED = String.raw`^\s*ci\b|\bci (jobs?|workflows?|config\w*|pipelines?|builds?|runs?|runners?|scripts?|setup|matrix)\b|\b(broken|failing|fix(es|ed)?|flaky|red) ci\b|\bcontinuous integration\b|\bgithub[- ]actions?\b|\btravis\b|\bcircleci\b|\bappveyor\b`;
/** …unless it is named as green or passing: where a reporter looked, not what failed. */
const NOT_GREEN = String.raw`(?!\s+(is|are|goes|go|stays|stay|turns|was|were|remains?) (green|fine|passing|happy|ok)\b)`;
const ciNamed = (more: string) => new RegExp(`(?:${CI_NAMED}${more})${NOT_GREEN}`, 'i');

export const ciConfig = defineKind({
  kind: 'ci-config',
  template: {
    label: 'CI workflows',
    title: 'Validate CI workflow changes in a branch run before relying on them',
    description: 'CI configuration is code: a tool version, a renamed action or a matrix entry can break every build.',
    check:
      'After editing CI workflows, run them on a branch and check that every job of the matrix actually ran and passed; pin tool and action versions and lint the workflow files.',
    why: 'A broken pipeline hides every other failure until it is repaired.',
    also: 'make sure CI actually runs that check',
    step: 'Run the edited workflows on a branch and check every job ran and passed.',
  },
  learnedRule: 'Test a change to the {p} on a branch before relying on CI',
  vocabulary: 'ci workflow pipeline configuration',
  textCues: [
    [ciNamed(String.raw`|\bjenkins\b`), 1.2],
    // an issue says where it failed ("fails on CI") or that CI is green: neither makes the fix a CI one
    [/\bci\b/i, 0.5],
    [/\bworkflows?\b|\bpipelines?\b|\bcoverage\b|\bmatrix\b/i, 0.6],
    [
      /\bactions tab\b|\b(jobs?|steps?)\b.{0,30}\b(skipped|zero tests|no tests)\b|\bskipped\b.{0,20}\bon every (pr|pull request|push)\b|\bupload(ing)? coverage\b|\bcodecov\b|\bprs? from forks\b|\bforked (prs?|pull requests?)\b|\bpull_request(_target)?\b|\bscheduled runs?\b|\bcron (job|trigger|schedule)s?\b/i,
      1.2,
    ],
    // a job that never runs or reports, a release job, the runner it ran on
    [
      /\brunner (image|os)\b|\bwaiting for status\b|\bnever reports?\b|\brequired (check|status)\w*\b|\b(release|publish|deploy|nightly|scheduled) (job|workflow)s?\b|\.github\/workflows?\b/i,
      1.2,
    ],
  ],
  files: {
    evidence: 'CI configuration',
    cues: [
      [
        /(^|\/)\.github\/workflows\/|(^|\/)\.travis\.yml$|(^|\/)\.circleci\/|appveyor\.yml$|azure-pipelines|\.gitlab-ci\.yml$|Jenkinsfile$/i,
        1.5,
      ],
    ],
  },
  lessons: [
    {
      id: 'ci-pipeline',
      title: 'Treat the CI workflow as code, pinning what it uses and testing every change to it',
      description:
        'A CI workflow breaks on a runner, tool or permission change and stops checking anything while looking green or red for the wrong reason.',
      check:
        'Pin the versions of actions and tools the workflow uses, give it the secrets and permissions it needs explicitly, and run a changed workflow on a branch before merging.',
      cues: [
        [ciNamed(String.raw`|\b(pipeline|workflow)s? (steps?|runs?|jobs?|files?)\b`), 1.2],
        // "fails on CI", a stream pipeline, a business workflow: each needs a second CI word
        [/\bci\b|\bworkflows?\b|\bpipelines?\b/i, 0.6],
        [/\bcoverage\b|\brunners?\b|\bmatrix\b/i, 0.5],
      ],
    },
    {
      id: 'new-runtime-release',
      title: 'A new runtime or compiler release must join the CI matrix before users run the code on it',
      description:
        'A runtime or compiler release removes an API or changes a built-in behaviour, and code and tests that only ever ran on older versions break on it.',
      check:
        'Add each new runtime release to the CI matrix beside the oldest supported version, detect a missing API by its presence rather than by comparing version strings, and gate a test on the behaviour it needs, not on a version number.',
      cues: [
        [
          /\bnode(\.?js)? ?([<>]=? ?)?v?\d+|\bpython ?([<>]=? ?)?[23](\.\d+)?\b|\bgo ?([<>]=? ?)?1\.\d+\b|\bruby ?\d|\bjava ?\d+\b|\bpy ?3\.?\d+\b/i,
          1.2,
        ],
        [
          /\b(newer|older|latest|new|old|next) (node|python|runtime|go|rust|java|ruby|v8|engines?|jvm|interpreters?|compilers?|toolchains?|releases? of (node|python|go|rust))\b|\b(runtime|toolchain|compiler) (versions?|releases?)\b/i,
          1,
        ],
        [/\b(ci|matrix|workflows?)\b/i, 0.3],
      ],
    },
  ],
});
