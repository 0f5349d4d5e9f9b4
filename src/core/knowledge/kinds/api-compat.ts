/** The routine kind api-compat (public behaviour and backward compatibility): its cues, routines and lessons. */
import { defineKind } from '../entry.js';

/**
 * Upgrading to a version named alone ("to 1.5.0", "to the latest patch"), not to another package:
 * the code's own release (api-compat), which the dependency kind's "upgrade" leaves alone.
 */
export const TO_OWN_VERSION = String.raw`(from v?\d[\w.]* )?to (the )?(latest |newest |new |last )?(v?\d[\w.]*|version|release|patch|minor|major)\b`;

export const apiCompat = defineKind({
  kind: 'api-compat',
  template: {
    label: 'public behaviour and backward compatibility',
    title: 'Pin the public behaviour with tests before changing it',
    description: 'A change that looks internal can break callers that rely on the previous behaviour of a public API.',
    check:
      'Before refactoring or tightening behaviour, write tests that use the public API exactly as callers do (arguments, return values, errors raised) and keep them passing; treat any change to them as a breaking change with a deprecation path.',
    why: 'A regression of public behaviour fails such a test the moment it is introduced.',
    also: 'keep the previous public behaviour covered by a test',
    step: 'Write tests of the public API as callers use it before changing the code.',
  },
  learnedRule: 'Pin the public behaviour of the {p} with a test before changing it',
  vocabulary: 'backward compatibility breaking change public behaviour contract',
  textCues: [
    [/\bbreaking( changes?)?\b|\bbackwards?[- ]compat|\bbackwards?[- ]incompatib/i, 1.2],
    [/\bregress(ion|ions|ed)\b/i, 0.8],
    [/\bcontract\b|\bpublic api\b|\bsemver\b/i, 1],
    // callers relied on what a release changed, and nobody told them
    [
      /\b(depended|relied|rely|relies|depend) on (that|this|it|the (old|previous))\b|\b(we|i|callers?|users?) (rely|relied|depend|depended) on\b|\b(gone|removed|dropped) in v?\d+\.\d+|\bnothing (about it )?in the (changelog|release notes)\b|\bnot (mentioned )?in the (changelog|release notes)\b|\bwithout (a|any) (deprecation|warning|notice)\b|\bno deprecation\b|\bbefore it (was|did|returned|gave)\b/i,
      1.2,
    ],
    [/\bintroduced (in|by)\b|\bprevious(ly)? (behaviou?r|versions?)|\brestor(e|es|ed)\b|\brevert/i, 0.6],
    [/\bbehaviou?r\b|\bapi\b/i, 0.4],
    // the reporter upgraded the code itself: to a version named alone, not to another package's
    [
      new RegExp(
        String.raw`\bupgrad(ing|ed) ${TO_OWN_VERSION}|\b((after|since|when) updating|(i|we|i've|we've|just) updated) ${TO_OWN_VERSION}|\bafter (upgrading|updating)[,.;:]|\bsince (v\d[\w.]*|\d+\.\d+[\w.]*)\b`,
        'i',
      ),
      1.2,
    ],
    // the reporter compares with an earlier release of the code itself (a dependency's names the package)
    [
      /\bit used to\b|\b(in|with|since) the (previous|last|prior|older) (release|version)\b|\b(worked|works|was working|did too|did the same|behaved) (fine |correctly |as expected )?(in|with|on|before|until) (v|version )?\d+(\.\d+)*(\.x)?\b|\b(v\d+|\d+\.\d+(\.\d+)?) did( too| the same| so)?\b|\bin v\d+(\.\d+)*,/i,
      1.2,
    ],
    // a change in a patch or minor release, a release that changed or removed a name, a pin back to a release
    [
      /\b(in|with|for) a (patch|minor|point|bugfix) (release|version|update|upgrade|bump)\b|\bv?\d+\.\d+[\w.]*\s+(changed|renamed|removed|dropped)\b|\b(was|were|has been|have been|got) (removed|renamed) (in|from|since) (v?\d|version|the (last|latest|new))|\bno longer (exported|exists|available|accepted|part of)\b|\b(pin(ning|ned)?|downgrad(e|ing|ed)|roll(ing|ed)? back|going back) (back )?to (v?\d[\w.]*|version|the (previous|last|old) (version|release))/i,
      1.2,
    ],
    // a call the public signature no longer accepts
    [
      /\bunexpected keyword argument\b|\b(not enough|too many) arguments in call\b|\btakes \d+ positional arguments? but \d+ (were|was) given\b|\bexpected \d+ arguments?, but got \d+\b/i,
      1.2,
    ],
  ],
  lessons: [
    {
      id: 'bodiless-responses',
      title: 'Responses that carry no body (HEAD, 204, 304) must be read and written without one',
      description:
        'Code that always reads or writes a body waits forever on a HEAD or 204 answer, fails to parse an empty body as JSON, or sends a body and a length the protocol forbids.',
      check:
        'Exercise the changed client or server with a HEAD request and with 204 and 304 answers, and assert no body is sent or awaited, no length is added, and an empty body is not parsed.',
      cues: [
        [/\bhead (requests?|method)\b|\b(204|304)\b|\bno content\b|\bnot modified\b|\bempty (response )?body\b/i, 1],
        [/\b(content-length|body|json|parse)\b/i, 0.3],
      ],
    },
    {
      id: 'public-behaviour-regression',
      title: 'Pin the public behaviour callers rely on with tests before refactoring',
      description: 'A change that looks internal alters a public method, return value or error that callers depend on.',
      check:
        'Before changing the code, write tests that use the public API exactly as callers do (arguments, results, errors, subclassing and decorating) and keep them passing; treat a needed change as a breaking one.',
      cues: [
        [/\bregress(ion|ions|ed)?\b|\bbreaking( changes?)?\b|\bbackwards?[- ]compat\w*\b|\bno longer\b/i, 1.1],
        [/\brestor\w*\b|\brevert\w*\b|\bprevious(ly)?\b|\bused to\b|\bintroduced (in|by)\b/i, 0.6],
        [/\bpublic api\b|\bcontract\b|\bsemver\b|\bdecorat\w*\b|\bsubclass\w*\b|\binherit\w*\b/i, 0.6],
      ],
    },
  ],
});
