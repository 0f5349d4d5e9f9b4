import { describe, expect, it } from 'vitest';
import type { Fix } from '../../src/core/types.js';
import {
  dropUserInfo,
  redactingLogger,
  createRedactor,
  findSecretsByPattern,
  redactFix,
  redactText,
  secretlintScanner,
  shannonEntropy,
} from '../../src/security/redact.js';
import { SECRET_SAMPLES, allLeaks, allSecretsText } from '../fixtures/secrets/corpus.js';

function survivors(text: string, leaks: string[]): string[] {
  return leaks.filter((leak) => text.includes(leak));
}

describe('redactText', () => {
  it.each(SECRET_SAMPLES.map((s) => [s.kind, s] as const))('removes a %s', async (_kind, sample) => {
    const out = await redactText(sample.text);
    expect(survivors(out, sample.leaks)).toEqual([]);
    expect(out).toMatch(/\[REDACTED:[a-z0-9-]+\]/);
  });

  it('leaves zero secrets of the whole corpus in one text', async () => {
    const out = await redactText(allSecretsText());
    expect(survivors(out, allLeaks())).toEqual([]);
  });

  it('keeps ordinary fix text readable', async () => {
    const text = [
      'Fix crash on empty input in the CSV parser (#1234)',
      'commit 3f9a1c20b7e4d5f60718293a4b5c6d7e8f901234',
      'request id 123e4567-e89b-12d3-a456-426614174000',
      '+  token: ${{ secrets.GITHUB_TOKEN }}',
      'password must be at least 8 characters',
      'const token = getToken();',
      'src/components/ButtonGroup/ButtonGroup.test.tsx',
      'FAIL __tests__/parser/empty-input.test.ts > parses an empty file',
      'Run npm test -- --coverage',
    ].join('\n');
    expect(await redactText(text)).toBe(text);
  });

  it('names the rule that fired in the marker', async () => {
    const sample = SECRET_SAMPLES.find((s) => s.kind === 'github-ghp');
    expect(await redactText(sample!.text)).toContain('[REDACTED:github');
  });

  it('is not switched off by a secretlint-disable comment in the text', async () => {
    const sample = SECRET_SAMPLES.find((s) => s.kind === 'slack-bot-token')!;
    const text = `<!-- secretlint-disable -->\n${sample.text}\n<!-- secretlint-enable -->`;
    const findings = await secretlintScanner(text);
    expect(findings.some((f) => f.rule === 'slack')).toBe(true);
  });
});

describe('the two layers', () => {
  it('secretlint alone misses kinds our own layer catches', async () => {
    const missed: string[] = [];
    for (const sample of SECRET_SAMPLES) {
      const findings = await secretlintScanner(sample.text);
      let out = sample.text;
      for (const f of [...findings].sort((a, b) => b.start - a.start)) out = out.slice(0, f.start) + out.slice(f.end);
      if (survivors(out, sample.leaks).length > 0) missed.push(sample.kind);
    }
    // without our layer these would leak: JWTs, Stripe, PyPI, Azure, generic assignments …
    expect(missed).toEqual(
      expect.arrayContaining(['jwt', 'stripe-live-secret', 'password-assignment', 'azure-sas-url']),
    );
  });

  it('the maintained scanner catches kinds our own patterns miss', async () => {
    const sample = SECRET_SAMPLES.find((s) => s.kind === 'linear-api-key')!;
    const patternsOnly = await createRedactor({ scanner: async () => [] }).redact(sample.text);
    expect(survivors(patternsOnly, sample.leaks)).toEqual(sample.leaks);
    expect(survivors(await redactText(sample.text), sample.leaks)).toEqual([]);
  });

  it('throws when the scanner fails, so nothing is sent or stored', async () => {
    const redactor = createRedactor({
      scanner: async () => {
        throw new Error('rule crashed');
      },
    });
    await expect(redactor.redact('some text')).rejects.toMatchObject({ code: 'redaction-failed' });
  });

  it('findSecretsByPattern finds nothing in plain prose', () => {
    expect(findSecretsByPattern('Run the migration tests against a fresh database after changing a schema.')).toEqual(
      [],
    );
  });

  it('shannonEntropy measures randomness', () => {
    expect(shannonEntropy('')).toBe(0);
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
  });
});

describe('redactFix', () => {
  it('redacts every text field of a fix', async () => {
    const text = allSecretsText();
    const fix: Fix = {
      tenant: 'acme',
      repo: 'acme/app',
      visibility: 'private',
      sourceKind: 'pull_request',
      ref: '7',
      url: `https://github.com/acme/app/pull/7?${SECRET_SAMPLES[0]!.text.trim().split('\n').pop()}`,
      title: `Fix login ${SECRET_SAMPLES[0]!.leaks[0]}`,
      problem: text,
      change: text,
      files: ['src/a.ts', `config/${SECRET_SAMPLES[1]!.leaks[0]}.env`],
      testsChanged: true,
      signals: [{ kind: 'check-red-green', check: 'unit', name: SECRET_SAMPLES[2]!.text, excerpt: text }],
      authors: ['octocat'],
      trusted: true,
      date: '2026-01-01T00:00:00Z',
      labels: [`bug ${SECRET_SAMPLES[3]!.leaks[0]}`],
    };
    const redacted = await redactFix(fix, createRedactor());
    expect(survivors(JSON.stringify(redacted), allLeaks())).toEqual([]);
    expect(redacted.files[0]).toBe('src/a.ts');
    expect(redacted.repo).toBe('acme/app');
    expect(redacted.signals[0]?.check).toBe('unit');
  });
});

describe('provenance and logs', () => {
  it("drops a URL's user-info before anything else, whatever it holds", () => {
    expect(dropUserInfo('https://deploy:hunter2hunter2@github.com/acme/api/pull/12')).toBe(
      'https://github.com/acme/api/pull/12',
    );
    expect(dropUserInfo('https://just-a-user@github.com/acme/api')).toBe('https://github.com/acme/api');
    expect(dropUserInfo('https://github.com/acme/api/pull/12')).toBe('https://github.com/acme/api/pull/12');
  });

  it('clears log messages and nested fields of secrets', () => {
    const lines: string[] = [];
    const record = (message: string, fields?: Record<string, unknown>) => lines.push(message + JSON.stringify(fields));
    const logger = redactingLogger({ debug: record, info: record, warn: record, error: record });
    const token = SECRET_SAMPLES.find((s) => s.kind === 'npm-token')!.leaks[0]!;
    logger.error(`git failed for ${token}`, { error: { message: `401 for ${token}` }, refs: [token] });
    expect(lines.join('\n')).not.toContain(token);
    expect(lines.join('\n')).toContain('[REDACTED:npm-token]');
  });
});

describe('hex and base64 assigned to a name that says key, token, secret or password', () => {
  const hex = 'f3a91c0d7e6b4a2958c1d0e7b3a6f914';
  const base64 = 'Zm9vYmFyMTIzNDU2Nzg5MGFiY2RlZg==';
  it.each([
    `KEY=${hex}`,
    `MAILGUN_KEY: ${hex}`,
    `signing.key = "${base64}"`,
    `TOKEN=${hex}`,
    `client_secret: ${base64}`,
    `password=${hex}`,
    `{"key": "${base64}"}`,
  ])('%s', async (text) => {
    const out = await redactText(text);
    expect(out).not.toContain(hex);
    expect(out).not.toContain(base64);
    expect(out).toContain('[REDACTED:');
  });

  it('leaves prose and identifiers assigned to a key alone', async () => {
    for (const text of ['primary key: id', 'sort key = createdAt', 'KEY=production', 'keys: 3 of 12 were rotated'])
      expect(await redactText(text)).toBe(text);
  });
});
