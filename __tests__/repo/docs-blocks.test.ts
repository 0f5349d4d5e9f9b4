/**
 * Every ```yaml / ```yml / ```json block of the README and docs/ parses, with no key twice in one
 * mapping: a reader copies them into workflows and configuration files as they are. A block
 * tagged `json` holding JSON Lines (one value a line) is parsed line by line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parseDocument } from 'yaml';

const ROOT = join(import.meta.dirname, '..', '..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

export interface Block {
  file: string;
  line: number;
  lang: 'yaml' | 'json';
  text: string;
}

/** The fenced blocks of a Markdown text tagged yaml, yml or json (```lang, maybe indented in a list). */
export function fencedBlocks(file: string, markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(\s*)(```+|~~~+)\s*([\w-]*)/.exec(lines[i] as string);
    if (!open) continue;
    const [, indent, fence, tag] = open as unknown as [string, string, string, string];
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !(lines[j] as string).trimStart().startsWith(fence); j += 1) {
      body.push(
        (lines[j] as string).startsWith(indent) ? (lines[j] as string).slice(indent.length) : (lines[j] as string),
      );
    }
    const lang = tag === 'yml' || tag === 'yaml' ? 'yaml' : tag === 'json' ? 'json' : undefined;
    if (lang) blocks.push({ file, line: i + 1, lang, text: body.join('\n') });
    i = j;
  }
  return blocks;
}

/** What is wrong with a block: invalid YAML/JSON or a duplicate key (empty: nothing). */
export function blockErrors(block: Block): string[] {
  if (block.lang === 'yaml') {
    return parseAllDocuments(block.text).flatMap((doc) =>
      'errors' in doc ? doc.errors.map((e) => e.message.split('\n')[0] as string) : [],
    );
  }
  let values: string[] = [block.text];
  try {
    JSON.parse(block.text);
  } catch {
    // JSON Lines: every non-empty line a value of its own
    values = block.text.split('\n').filter((l) => l.trim() !== '');
  }
  return values.flatMap((text) => {
    try {
      JSON.parse(text);
    } catch (error) {
      return [(error as Error).message];
    }
    // JSON.parse keeps the last of two equal keys without a word; YAML's parser (a superset) refuses them
    return parseDocument(text, { uniqueKeys: true }).errors.map((e) => e.message.split('\n')[0] as string);
  });
}

const files = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];
const blocks = files.flatMap((file) => fencedBlocks(relative(ROOT, file), readFileSync(file, 'utf8')));

describe('the YAML and JSON blocks of the README and docs/', () => {
  it('finds the blocks (the Action example of the README among them)', () => {
    expect(blocks.filter((b) => b.file === 'README.md' && b.lang === 'yaml').length).toBeGreaterThan(0);
    expect(blocks.filter((b) => b.lang === 'json').length).toBeGreaterThan(0);
  });

  it('refuses a mapping with a key twice, and invalid JSON', () => {
    const twice = fencedBlocks('x.md', '```yaml\nwith:\n  target: a\n  target: b\n```\n');
    expect(blockErrors(twice[0] as Block)).toEqual([expect.stringContaining('Map keys must be unique')]);
    const json = fencedBlocks('x.md', '- a list\n\n  ```json\n  { "a": 1, "a": 2 }\n  ```\n');
    expect(blockErrors(json[0] as Block)).toEqual([expect.stringContaining('Map keys must be unique')]);
    expect(blockErrors({ file: 'x.md', line: 1, lang: 'json', text: '{ "a": 1, }' })).toHaveLength(1);
  });

  it.each(blocks.map((b) => [`${b.file}:${b.line}`, b] as const))('%s parses, with no duplicate key', (_, block) => {
    expect(blockErrors(block)).toEqual([]);
  });
});
