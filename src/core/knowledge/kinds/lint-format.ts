/** The routine kind lint-format (linter and formatter findings): its cues, routines and lessons. */
import { defineKind } from '../entry.js';

export const lintFormat = defineKind({
  kind: 'lint-format',
  template: {
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
  learnedRule: 'Keep the code of the {p} clean under the linter and formatter in CI',
  vocabulary: 'linter formatter warnings static analysis',
  textCues: [
    [
      /\blint(s|er|ers|ing)?\b|\beslint\b|\bclippy\b|\bvet\b|\bgolint\b|\bstaticcheck\b|\bflake8\b|\bruff\b|\bpylint\b/i,
      1.2,
    ],
    [/\bprettier\b|\bgofmt\w*|\brustfmt\b|\bcode (formatter|formatting|style)\b|\bfmt\b/i, 1],
    [
      /\bmissing separator\b|\btabs? (vs\.?|versus|instead of|and|or) spaces\b|\bmixed (tabs|indentation)\b|\binconsistent indentation\b/i,
      1.2,
    ],
    [
      /\bwarnings?\b|\bunused\b|\bdeclared (and|but) not used\b|\bstyle (checks?|guide|issues?|errors?|violations?)\b/i,
      0.6,
    ],
    // a formatter's or an autofix's own output
    [
      /\bafter (formatting|reformatting|autofix\w*|auto-?correct\w*)\b|\bauto-?correct\w*\b|\bautofix\w*\b|\breformat(s|ted|ting)?\b|(^|\s)--(write|fix)\b/i,
      1.2,
    ],
  ],
  files: {
    evidence: 'linter or formatter configuration',
    cues: [
      [
        /(^|\/)(\.eslintrc[\w.]*|eslint\.config\.\w+|\.golangci\.ya?ml|clippy\.toml|\.flake8|ruff\.toml|\.prettierrc[\w.]*|\.rubocop\.yml)$/i,
        1,
      ],
    ],
  },
  checks: { lint: 1.5 },
  lessons: [
    {
      id: 'linter-clean',
      title: 'Keep the linter, vet and formatter as required CI steps, and fix new warnings',
      description:
        'A new linter or compiler release adds rules, and warnings that are not a failing step pile up until they hide a real defect.',
      check:
        'Run the linter, vet tool and formatter with pinned versions as a failing CI step, and fix new findings when upgrading them rather than silencing them.',
      cues: [
        [
          /\blint\w*\b|\bclippy\b|\bgo vet\b|\bvet\b|\beslint\b|\bflake8\b|\bruff\b|\bpylint\b|\bstaticcheck\b|\bgofmt\w*|\brustfmt\b|\bprettier\b/i,
          1.3,
        ],
        [/\bwarnings?\b|\bunused\b|\bformat(ting|ter)\b/i, 0.5],
      ],
    },
  ],
});
