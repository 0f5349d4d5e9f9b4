/**
 * The README and docs hold together: one Documentation section and no empty one, each command
 * once in the README's table, the README's test command the one CI runs, each setting of the App
 * once, one option table per command in docs/cli.md and true to its --help, and the layout of
 * docs/architecture.md naming each folder once and every module in it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { runCli } from '../helpers/run-cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The sections of a Markdown text at one heading level: title → body (up to the next heading of that level or higher). */
function sections(markdown: string, level: number): { title: string; body: string }[] {
  const heading = new RegExp(`^#{1,${level}} `);
  const out: { title: string; body: string }[] = [];
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fence = !fence;
    if (!fence && heading.test(line)) out.push({ title: line, body: '' });
    else if (out.length > 0) (out.at(-1) as { body: string }).body += `${line}\n`;
  }
  return out;
}

/** The rows of the Markdown tables of a text, as cells (header and separator rows left out). */
function tableRows(markdown: string): string[][] {
  const lines = markdown.split('\n');
  return lines.flatMap((line, i) => {
    if (!line.startsWith('|') || /^\|\s*-/.test(line) || /^\|\s*-/.test(lines[i + 1] ?? '')) return [];
    return [
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((c) => c.trim()),
    ];
  });
}

/** The words in backticks of a text. */
const codeSpans = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);

describe('README.md', () => {
  const readme = read('README.md');

  it('has one Documentation section, and no heading without a word under it', () => {
    expect(readme.match(/^## Documentation$/gm)).toHaveLength(1);
    const empty = sections(readme, 6).filter((s) => s.body.trim() === '' || /^#/.test(s.body.trim()));
    // a heading followed at once by a sub-heading is fine; one followed by nothing is not
    expect(empty.filter((s) => s.body.trim() === '').map((s) => s.title)).toEqual([]);
  });

  it('lists each command once in its table of commands', () => {
    const table = sections(readme, 3).find((s) => s.title === '### The commands')?.body ?? '';
    const named = tableRows(table).flatMap((row) => [
      ...new Set(codeSpans(row[0] ?? '').map((span) => span.split(' ')[0])),
    ]);
    for (const command of COMMANDS)
      expect(
        named.filter((n) => n === command.name),
        command.name,
      ).toHaveLength(1);
  });

  it('gives the test command .ci/run runs, set-up included', () => {
    const development = sections(readme, 2).find((s) => s.title === '## Development')?.body ?? '';
    const command = /```sh\n(.+)\n```/.exec(development)?.[1];
    expect(command).toContain('npm run test:setup');
    const ci = read('.ci/run')
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('#'));
    expect(ci.at(-1)).toBe(command);
  });
});

it('docs/app-setup.md lists each setting once', () => {
  const names = tableRows(read('docs/app-setup.md')).flatMap((row) =>
    codeSpans(row[0] ?? '').filter((s) => /^[A-Z][A-Z0-9_]+$/.test(s)),
  );
  expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  expect(names).toContain('INSTALL_BACKFILL_LIMIT');
});

describe('docs/cli.md', () => {
  const cli = sections(read('docs/cli.md'), 2);

  it.each(COMMANDS.map((c) => c.name))(
    '`%s`: at most one option table, and it names the flags of --help',
    async (name) => {
      const section = cli.find((s) => s.title === `## ${name}`);
      const tables = (section?.body ?? '').match(/^\| option +\|/gm) ?? [];
      expect(tables.length).toBeLessThanOrEqual(1);
      if (tables.length === 0) return;
      const documented = tableRows(section?.body ?? '')
        .filter((row) => row.length === 2)
        .flatMap((row) => codeSpans(row[0] ?? '').flatMap((s) => s.match(/--[a-z][a-z-]*/g) ?? []));
      const help = (await runCli([name, '--help'], ROOT)).stdout.split('Global Options:')[0] ?? '';
      const flags = [...help.matchAll(/^\s+(?:-\w, )?(--[a-z][a-z-]*)/gm)]
        .map((m) => m[1])
        .filter((f) => f !== '--help');
      expect(new Set(documented)).toEqual(new Set(flags));
    },
  );
});

describe('docs/architecture.md', () => {
  const doc = read('docs/architecture.md');
  const layout = /## Layout as built\n+```\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
  /** the layout's entries: a path at the start of a line → its text (with its continuation lines) */
  const entries = new Map<string, string>();
  let current = '';
  for (const line of layout.split('\n')) {
    const start = /^(\S+)\s/.exec(line);
    if (start) {
      current = start[1] as string;
      entries.set(current, (entries.get(current) ?? '') + line);
    } else entries.set(current, (entries.get(current) ?? '') + line);
  }
  const folders = readdirSync(join(ROOT, 'src')).filter((f) => statSync(join(ROOT, 'src', f)).isDirectory());

  it('lists every folder of src/ once', () => {
    const listed = layout.split('\n').flatMap((l) => /^(src\/[\w-]+\/)/.exec(l)?.[1] ?? []);
    expect(listed.filter((f, i) => listed.indexOf(f) !== i)).toEqual([]);
    expect(new Set(listed)).toEqual(new Set(folders.map((f) => `src/${f}/`)));
  });

  it.each(folders)('names every module and sub-folder of src/%s/ in its entry', (folder) => {
    const text = entries.get(`src/${folder}/`) ?? '';
    const missing = readdirSync(join(ROOT, 'src', folder)).flatMap((name) => {
      const isDir = statSync(join(ROOT, 'src', folder, name)).isDirectory();
      const word = isDir ? `${name}/` : name.replace(/\.ts$/, '');
      return new RegExp(`(^|[^\\w-])${word.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}([^\\w-]|$)`).test(text)
        ? []
        : [word];
    });
    expect(missing).toEqual([]);
  });
});

it('user docs say what is: no work sessions or issue numbers (the history is in CHANGELOG.md)', () => {
  // docs/architecture.md's decisions still name them: its engine sections are being rewritten
  const files = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ].filter((f) => f !== 'docs/architecture.md');
  const diary =
    /\b(?:issue \d+|(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|this|last|next) session|session \d+)\b/i;
  const found = files.flatMap((file) =>
    read(file)
      .split('\n')
      .flatMap((line, i) => (diary.test(line) ? [`${file}:${i + 1}: ${line.trim().slice(0, 80)}`] : [])),
  );
  expect(found).toEqual([]);
  expect(read('CHANGELOG.md')).toMatch(/^# Changelog/);
});
