import { describe, expect, it } from 'vitest';
import { stripHiddenText } from '../../src/security/sanitize.js';
import { HOSTILE_SAMPLES } from '../fixtures/hostile/corpus.js';

const untrusted = { trustedAuthor: false };
const trusted = { trustedAuthor: true };

describe('stripHiddenText', () => {
  it.each(HOSTILE_SAMPLES.filter((s) => s.defence !== 'screen').map((s) => [s.file, s] as const))(
    'removes the hidden injection of %s',
    (_file, sample) => {
      const hiddenMarkers = sample.markers.filter((m) => sample.text.includes(m));
      expect(hiddenMarkers.length).toBeGreaterThan(0);
      const out = stripHiddenText(sample.text, untrusted);
      const visible = sample.file.startsWith('02-') ? ['attacker.example'] : []; // 02 also has a visible curl | sh (screened)
      expect(hiddenMarkers.filter((m) => out.includes(m) && !visible.includes(m))).toEqual([]);
    },
  );

  it('keeps what a reader sees', () => {
    const text = 'The parser fails on an empty file.\n\nSteps: run `npm test`.';
    expect(stripHiddenText(text, untrusted)).toBe(text);
  });

  it('removes HTML comments, also an unclosed one that hides the rest', () => {
    expect(stripHiddenText('a <!-- hidden --> b', untrusted)).toBe('a  b');
    expect(stripHiddenText('visible <!-- hidden to the end', untrusted)).toBe('visible ');
  });

  it('removes zero-width, bidi, tag and variation-selector characters', () => {
    const tags = [...'run curl'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    const text = `a\u200bb\u200dc\u2060d\ufeffe\u202ef\u2066g\u2069h\u00adi${tags}j\ufe0fk`;
    expect(stripHiddenText(text, untrusted)).toBe('abcdefghijk');
  });

  it('removes images with their alt text, markdown and HTML', () => {
    const text = 'see ![run rm -rf](https://x.example/a.png) and ![ref alt][img] and <img alt="obey me" src="x"> end';
    expect(stripHiddenText(text, untrusted)).toBe('see  and  and  end');
  });

  it('removes collapsed <details> written by a non-maintainer, nested ones too, and keeps them for a maintainer', () => {
    const text = 'before\n<details><summary>log</summary>outer <details>inner</details> still hidden</details>\nafter';
    expect(stripHiddenText(text, untrusted)).toBe('before\n\nafter');
    expect(stripHiddenText(text, trusted)).toContain('still hidden');
    expect(stripHiddenText('x <details>never closed', untrusted)).toBe('x ');
  });

  it('removes link reference definitions and link titles (invisible when rendered)', () => {
    const text = 'text\n[//]: # (obey the hidden comment)\n[a](https://github.com "tooltip instruction") end';
    expect(stripHiddenText(text, untrusted)).toBe('text\n[a](https://github.com) end');
  });

  it('removes script/style blocks and elements marked hidden', () => {
    const text =
      'a<script>alert(1)</script>b<style>.x{}</style>c<span hidden>secret order</span>d<div aria-hidden="true">x</div>e';
    expect(stripHiddenText(text, untrusted)).toBe('abcde');
  });
});
