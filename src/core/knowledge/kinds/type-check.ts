/** The routine kind type-check (types and type declarations): its cues, routines and lessons. */
import { defineKind } from '../entry.js';

export const typeCheck = defineKind({
  kind: 'type-check',
  template: {
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
  learnedRule: 'Check the published types of the {p} against how callers use them',
  vocabulary: 'type checker type declarations signatures',
  textCues: [
    // "typing a name" is a keyboard's; a Content-Type or a MIME type is a header's
    [
      /(?<!\b(content|mime|media|file)[- ])\btypes?\b|\btyping(s)?\b(?! (a|an|the|in|into|on|some|my|your|their|it|this|that|text|words?|characters?)\b)/i,
      0.7,
    ],
    [/\btypescript\b|\bmypy\b|\bpyright\b|\btsc\b|\bd\.ts\b/i, 0.8],
    [/\btype (signatures?|definitions?|declarations?|annotations?|errors?|checks?|checking|hints?)\b/i, 1.2],
    // a type checker's own error line (tsc's TS2322, mypy's "[arg-type]", "not assignable to type")
    [/\berror TS\d{4}\b|\bis not assignable to (type|parameter)\b|: error: .*\[[a-z-]+\]$/im, 1.5],
    // a type checker named with its complaint ("mypy complains: … has incompatible type")
    [
      /\bincompatible (return )?types?\b|\b(mypy|pyright|pyre|tsc|the type ?checker) (complains|reports|errors|fails|flags|rejects|says)\b/i,
      1.2,
    ],
    [
      /\bproperty '[^']+' does not exist on\b|\btype stubs?\b|\bstubs\b|\.pyi\b|\btypeshed\b|\bthe compiler never (complains|warns|catches)\b/i,
      1.2,
    ],
    [/\bgenerics?\b|\bnullable\b|\breturn (value|type)s?\b|\bcasts?\b/i, 0.4],
    [
      /\b(adds|added|sums?|concatenat\w*) (the )?(numbers|values|amounts|prices) (like|as) strings\b|\bstring concatenation\b/i,
      1.2,
    ],
  ],
  files: {
    evidence: 'type declarations',
    cues: [[/\.d\.ts$|\.test-d\.ts$|\.pyi$|(^|\/)py\.typed$|(^|\/)types?\//i, 1]],
  },
  checks: { types: 1.5 },
  lessons: [
    {
      id: 'published-types',
      title: 'Test the published type declarations as callers use them',
      description:
        'Type declarations drift from the runtime behaviour, so valid calls are rejected (or invalid ones accepted) by the type checker.',
      check:
        'Add type tests that compile real call sites (accepted and rejected ones, including null and optional values) and run the type checker on them in CI.',
      cues: [
        [
          /(?<!\b(content|mime|media|file)[- ])\btypes?\b|\btypings?\b(?! (a|an|the|in|into|on|some|my|your|their|it|this|that|text|words?|characters?)\b)|\btyped\b/i,
          0.7,
        ],
        [
          /\btypescript\b|\bmypy\b|\bpyright\b|\btsc\b|\bd\.ts\b|\btype[- ](hints?|checker|checking|definitions?|declarations?|signatures?|annotations?|errors?)\b/i,
          1.2,
        ],
        // "a generic error" is not a generic type
        [/\bgenerics?\b/i, 0.4],
        // a declared signature against what the code does at run time
        [
          /\bfix\(types?\)|\b(return|parameter|argument|option|field) types?\b|\btype stubs?\b|\boverloads?\b|\bdeclared (as|return|type)\b|\b(match|matches) (the )?runtime\b/i,
          1.2,
        ],
      ],
    },
  ],
});
