import { describe, expect, it } from 'vitest';
import { escapeMarkdown, markdownLink, safeLink } from '../../src/security/markdown.js';

describe('escapeMarkdown', () => {
  it('leaves no raw HTML', () => {
    const out = escapeMarkdown('<img src=x onerror=alert(1)><script>x</script><!-- c --> & <b>bold</b>');
    expect(out).not.toMatch(/[<>]/);
    expect(out).toContain('&lt;img');
    expect(out).toContain('&amp;');
  });

  it('makes no link and no image', () => {
    const out = escapeMarkdown(
      '[click](https://attacker.example) ![pixel](https://attacker.example/p.png) <https://x.example>',
    );
    expect(out).not.toMatch(/(?<!\\)\[/);
    expect(out).not.toMatch(/(?<!\\)\]/);
    expect(out).not.toContain('https://');
  });

  it('does not ping: @user, @org/team and e-mail addresses are broken', () => {
    const out = escapeMarkdown('cc @octocat @acme/security-team mail me@example.com');
    expect(out).not.toMatch(/@[A-Za-z0-9]/);
    expect(out).toContain('@&#8203;octocat');
  });

  it('does not cross-reference issues or link autolinked URLs', () => {
    const out = escapeMarkdown(
      'fixes #123 and acme/private#7 and GH-9 see www.attacker.example or http://x.example',
    ).replace(/&#8203;/g, ' ');
    expect(out).not.toMatch(/#\d/);
    expect(out).not.toMatch(/GH\\?-\d/);
    expect(out).not.toMatch(/www\\?\./);
    expect(out).not.toContain('://');
  });

  it('cannot start a heading, list, quote, table, fence or emphasis', () => {
    const out = escapeMarkdown('# Title\n- item\n> quote\n```js\n| a | b |\n**bold** _em_ ~~del~~ 1. one');
    expect(out).not.toContain('\n');
    expect(out.replace(/&#8203;/g, ' ')).not.toMatch(/(?<!\\)[#`*_~|-]/);
  });

  it('drops control, zero-width and bidi characters', () => {
    expect(escapeMarkdown('a\u0000b\u200bc\u202ed\u0007e')).toBe('abcde');
  });

  it('keeps plain words readable', () => {
    expect(escapeMarkdown('Run the migration tests against a fresh database')).toBe(
      'Run the migration tests against a fresh database',
    );
  });
});

describe('safeLink', () => {
  it('accepts only the GitHub host the App talks to', () => {
    expect(safeLink('https://github.com/acme/app/pull/7', 'https://github.com')).toBe(
      'https://github.com/acme/app/pull/7',
    );
    expect(safeLink('https://github.com/acme/app/pull/7', 'github.com')).toBe('https://github.com/acme/app/pull/7');
    expect(safeLink('https://ghe.acme.com/x/y/issues/1', 'https://ghe.acme.com/')).toBe(
      'https://ghe.acme.com/x/y/issues/1',
    );
  });

  it('refuses other hosts, look-alikes, subdomains, other schemes and credentials', () => {
    for (const url of [
      'https://attacker.example/x',
      'https://github.com.attacker.example/x',
      'https://gist.github.com/x',
      'http://github.com/x',
      'javascript:alert(1)',
      'data:text/html,hi',
      'https://user:pw@github.com/x',
      'not a url',
    ]) {
      expect(safeLink(url, 'https://github.com'), url).toBeUndefined();
    }
  });

  it('encodes characters that could end the Markdown link', () => {
    const href = safeLink('https://github.com/a/b/issues?q=x) ![i](https://attacker.example)', 'https://github.com');
    expect(href).toBeDefined();
    expect(href).not.toMatch(/[()\s[\]]/);
  });

  it('markdownLink falls back to escaped text', () => {
    expect(markdownLink('PR 7', 'https://github.com/acme/app/pull/7', 'https://github.com')).toBe(
      '[PR 7](https://github.com/acme/app/pull/7)',
    );
    expect(markdownLink('evil [x]', 'https://attacker.example', 'https://github.com')).toBe('evil \\[x\\]');
  });
});
