import { describe, expect, it } from 'vitest';
import { generalVocabulary } from '../../src/abstraction/vocabulary.js';
import { generalizeSubject } from '../../src/core/generalize.js';

const vocabulary = generalVocabulary();
const general = (subject: string, names: string[] = ['acme', 'widget']) =>
  generalizeSubject(subject, vocabulary, names).text;

describe('generalizeSubject: a fix subject in repository-agnostic words', () => {
  it.each([
    ['Fix socket `connect` listener memory leak (#406)', 'socket connect listener memory leak'],
    [
      'fix: throw in `onSend` causes widget to not respond (#2695)',
      'throw in a function causes the project to not respond',
    ],
    ['Fix the default for the modifyCoreObjects option (#1517)', 'the default for the option'],
    ['fix(types): allow `fastify.https` to be `null` (#4226)', 'allow a function to be null'],
    ['Fix too many path separators on Windows (#93).', 'too many path separators on Windows'],
    ['Fix `Invalid URL` checks on Node.js 16', 'a type checks on Node.js 16'],
    ['Fix for sending files with size `0` on `stat` (#1488)', 'sending files with size 0 on stat'],
    ['exec-batch: fix a panic with -X "echo {}"', 'a panic with a flag a special value'],
    ['Fix DST bug in `addX` (closes #465) (#466)', 'DST bug'],
    ['Fix zsh completions with colons', 'zsh completions with colons'],
    [
      'fix: display color when NO_COLOR is an empty string',
      'display color when an environment variable is an empty string',
    ],
    [
      ':art: Fix padding around app name in startup message when containing non-ascii characters (#1987)',
      'padding around app name in startup message when containing non-ascii characters',
    ],
    ['🐛 fix: crash on empty config', 'crash on empty config'],
    // who reported, suggested or wrote a fix is no part of it
    ['Fixed pickling of tz classes, as reported by Andriy Drozdyuk.', 'pickling of tz classes'],
    ['Fixed DST signal handling in zone files. Reported by Nicholas F. Fabry.', 'DST signal handling in zone files'],
    ['Fix parsing of weekday names (patch by Jane Roe)', 'parsing of weekday names'],
    ['Thanks to John Doe for the patch: fix leap year parsing', 'leap year parsing'],
    ['Fix crash on empty input (thanks @octocat)', 'crash on empty input'],
    ['Fix crash when the thanks page is empty', 'crash when the thanks page is empty'],
    ['Fix panic found by fuzzing in the tokenizer', 'panic found by fuzzing in the tokenizer'],
    ['Fix crash reported by Windows users', 'crash reported by Windows users'],
    // a subject that runs on past its first sentence
    [
      'Fixed DST signal handling in zone files. (This revision adds just the test, the fix came earlier.)',
      'DST signal handling in zone files',
    ],
    ['Fixed bug in constructor of parser. Original report on the list.', 'bug in constructor of parser'],
    // a title cut short leaves no preposition hanging
    [
      'Fix the precision lost when decimal seconds are converted to…',
      'the precision lost when decimal seconds are converted',
    ],
    ['Fix the precision lost in the conversion of...', 'the precision lost in the conversion'],
    ['Fixing pickling of tz classes, as reported by Andreas Köhler <ak@example.de>.', 'pickling of tz classes'],
    [
      'Fixed two digit year parsing, as reported by Jim Abramson, and included test case for this.',
      'two digit year parsing',
    ],
    ['Fix off-by-one in ranges (reported by @octocat and Jane Roe)', 'off-by-one in ranges'],
  ])('%j → %j', (subject, expected) => {
    expect(general(subject)).toBe(expected);
  });

  it('drops plain words that are no general vocabulary (names of modules, misspelt identifiers)', () => {
    const { text, removed } = generalizeSubject('Fix panic if Valus in the quux list is missing', vocabulary, []);
    expect(text).not.toMatch(/Valus|quux/);
    expect(removed).toEqual(expect.arrayContaining(['Valus', 'quux']));
  });

  it("never keeps the source repository's owner or name", () => {
    expect(general('Fix acme crash when widget starts twice', ['acme', 'widget'])).not.toMatch(/acme|widget/i);
  });

  it('keeps the shared technical vocabulary that makes a lesson useful', () => {
    expect(general('Fix Authorization header kept on redirect to another host')).toBe(
      'Authorization header kept on redirect to another host',
    );
    expect(general('Fix empty config file crash on UTC+13')).toBe('empty config file crash on UTC+13');
  });
});
