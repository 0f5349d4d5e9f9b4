/**
 * `npm run eval -- --abstract-by-model --record-abstractions FILE` keeps the model's answers for
 * each fix, and `--abstractions FILE` learns with the same LLM abstractor answered from FILE,
 * offline: the same insight for the same fix, the rules for a fix with no answer (counted), and a
 * clear error naming the line of a malformed file. The model is mocked at the HTTP layer.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingAbstractor, replayedAbstractor } from '../../scripts/eval/recorded-abstractions.js';
import { llmConfigFromEnv } from '../../src/config/llm.js';
import { silentLogger } from '../../src/ports/index.js';
import { goodAnswer, makeFix } from '../abstraction/llm-fixtures.js';

const BASE = 'https://llm.test';
const config = llmConfigFromEnv({
  OPENAI_API_KEY: 'sk-test',
  OPENAI_BASE_URL: `${BASE}/v1`,
  MEMORY_TRANSFER_LLM_RETRIES: '0',
});
const fix = makeFix();

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mt-abstractions-'));
  file = join(dir, 'abstractions.jsonl');
});
afterEach(() => {
  nock.cleanAll();
  rmSync(dir, { recursive: true, force: true });
});

function completion(content: string) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-5-mini',
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop' }],
  };
}

const insightOf = (memories: { level: string; title: string; routines: string[] }[]) =>
  memories.find((m) => m.level === 'insight')!;

describe('recorded abstractions', () => {
  it('a recorded run replays the model’s insight for each fix offline, and asks the model once per fix', async () => {
    const model = nock(BASE)
      .post('/v1/chat/completions')
      .once()
      .reply(200, completion(JSON.stringify(goodAnswer)));
    const live = recordingAbstractor(config, file, silentLogger);
    const first = await live.abstract(fix);
    // leave-one-repository-out learns the fix again for every pool: no second call
    await live.abstract(fix);
    expect(model.isDone()).toBe(true);
    expect(first.writer).toBe('model');
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(1);

    const replayed = replayedAbstractor(file);
    const again = await replayed.abstract(fix);
    expect(again.writer).toBe('model');
    expect(insightOf(again.memories).title).toBe(goodAnswer.insight.title);
    expect(insightOf(again.memories).routines).toEqual(insightOf(first.memories).routines);
    expect(replayed.missing()).toBe(0);
  });

  it('a fix with no recorded answer (another fix, or the prompt changed) is learned by the rules, and counted', async () => {
    nock(BASE)
      .post('/v1/chat/completions')
      .reply(200, completion(JSON.stringify(goodAnswer)));
    await recordingAbstractor(config, file, silentLogger).abstract(fix);
    const replayed = replayedAbstractor(file);
    const other = await replayed.abstract(makeFix({ ref: '43', title: 'Fix crash on an empty body' }));
    expect(other.writer).toBe('rules');
    expect(other.fallback?.reason).toContain('no recorded answer');
    expect(replayed.missing()).toBe(1);
  });

  it('a recorded answer is checked as a live one is: one that breaks the schema falls back to the rules', async () => {
    const broken = { ...goodAnswer, insight: { ...goodAnswer.insight, description: 'One. Two. Three.' } };
    nock(BASE)
      .post('/v1/chat/completions')
      .reply(200, completion(JSON.stringify(broken)));
    await recordingAbstractor(config, file, silentLogger).abstract(fix);
    const replayed = await replayedAbstractor(file).abstract(fix);
    expect(replayed.writer).toBe('rules');
    expect(replayed.fallback?.reason).toContain('schema mismatch: insight.description');
  });

  it('a malformed file is refused with the line and what is wrong', () => {
    writeFileSync(
      file,
      `{"prompt_sha256": "${'a'.repeat(64)}", "answer": {}}\n{"prompt_sha256": "xyz", "answer": {}}\n`,
    );
    expect(() => replayedAbstractor(file)).toThrow(`${file}:2: prompt_sha256 must be the request's SHA-256 in hex`);
    writeFileSync(file, `{"prompt_sha256": "${'a'.repeat(64)}", "answer": "text"}\n`);
    expect(() => replayedAbstractor(file)).toThrow(`${file}:1: answer must be the model's JSON answer`);
    writeFileSync(file, 'not json\n');
    expect(() => replayedAbstractor(file)).toThrow(`${file}:1: not a JSON object`);
    expect(() => replayedAbstractor(join(dir, 'absent.jsonl'))).toThrow('no abstractions file at');
  });
});
