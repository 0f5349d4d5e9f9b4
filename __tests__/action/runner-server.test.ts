import nock from 'nock';
import { describe, expect, it } from 'vitest';
import type { InjectedInsight } from '../../src/core/rendering/render-injection.js';
import { harness } from './harness.js';

const SERVER = 'https://memory.acme.dev';
const insight: InjectedInsight = {
  id: 'm1111111111',
  level: 'insight',
  title: 'Run migration tests against a fresh database',
  description: 'Apply every migration to an empty database in a test.',
  content: 'Create a fresh database, apply all migrations, run the schema tests.',
  evidence: ['tests changed in the same change'],
  score: 0.61,
  transferred: true,
  source: { repo: 'acme/api', url: 'https://github.com/acme/api/pull/9' },
  support: 2,
};

describe('run() in server mode', () => {
  it('recalls with the OIDC token for the audience, injects, and reports usage for the run', async () => {
    const scope = nock(SERVER, { reqheaders: { authorization: 'Bearer oidc-token-for-memory-transfer' } })
      .post('/api/v1/recall', { task: 'migration fails', top_k: 3, level: 'insight' })
      .reply(200, { insights: [insight] })
      .post('/api/v1/usage', { ids: ['m1111111111'], run_id: '777', run_attempt: 1, target: 'agents-md' })
      .reply(200, { recorded: 1 });
    const h = await harness({ inputs: { 'server-url': SERVER, task: 'migration fails' } });
    await h.run();
    scope.done();
    expect(h.failures).toEqual([]);
    expect(h.outputs.ids).toBe('m1111111111');
    expect(h.result?.usageReported).toBe(1);
    expect(await h.read('AGENTS.md')).toContain('backed by 2 fixes');
  });

  it('a run the App withheld insights from says how many and how to share them, without ids', async () => {
    const scope = nock(SERVER)
      .post('/api/v1/recall')
      .reply(200, { insights: [], withheld: { count: 2, ids: [], visibility: 'public' } });
    const h = await harness({ inputs: { 'server-url': SERVER, task: 'migration fails' } });
    await h.run();
    scope.done();
    expect(h.failures).toEqual([]);
    expect(h.summaries[0]).toMatch(
      /2 relevant insights were withheld: their sources are more private than this repository \(public\)/,
    );
    expect(h.summaries[0]).toMatch(/memory-transfer share ID/);
  });

  it("the summary says why nothing was injected by the server's reading of the task, not its own", async () => {
    // the rules here would read a failure; the server's model read a question
    const scope = nock(SERVER).post('/api/v1/recall').reply(200, { insights: [], task_kind: 'question' });
    const h = await harness({ inputs: { 'server-url': SERVER, task: 'Crash on an empty request body' } });
    await h.run();
    scope.done();
    expect(h.failures).toEqual([]);
    expect(h.summaries[0]).toMatch(/No insight was injected: the task is a question/);
  });

  it('a custom audience is what the token is asked for', async () => {
    const scope = nock(SERVER, { reqheaders: { authorization: 'Bearer oidc-token-for-https://memory.acme.dev' } })
      .post('/api/v1/recall')
      .reply(200, { insights: [] });
    const h = await harness({ inputs: { 'server-url': SERVER, task: 't', audience: SERVER } });
    await h.run();
    scope.done();
    expect(h.outputs.count).toBe('0');
  });

  it('report-usage: false and dry-run report nothing', async () => {
    nock(SERVER)
      .post('/api/v1/recall')
      .times(2)
      .reply(200, { insights: [insight] });
    for (const inputs of [{ 'report-usage': 'false' }, { 'dry-run': 'true' }] as Record<string, string>[]) {
      const h = await harness({ inputs: { 'server-url': SERVER, task: 't', target: 'none', ...inputs } });
      await h.run();
      expect(h.result?.usageReported).toBe(0);
    }
  });

  it('an unreachable server: a warning, no insights, the step succeeds', async () => {
    nock(SERVER).post('/api/v1/recall').replyWithError({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' });
    const h = await harness({ inputs: { 'server-url': SERVER, task: 't' } });
    await h.run();
    expect(h.failures).toEqual([]);
    expect(h.outputs.count).toBe('0');
    expect(h.warnings.join('\n')).toMatch(/recall failed, continuing without insights: .*unreachable/);
    expect(h.summaries[0]).toMatch(/Recall failed, the job continued without insights/);
  });

  it('a slow server: cut at timeout-seconds, then a warning', async () => {
    nock(SERVER)
      .post('/api/v1/recall')
      .delay(3_000)
      .reply(200, { insights: [insight] });
    const h = await harness({ inputs: { 'server-url': SERVER, task: 't', 'timeout-seconds': '0.2' } });
    await h.run();
    expect(h.failures).toEqual([]);
    expect(h.warnings.join('\n')).toMatch(/did not answer within 200 ms/);
  });

  it('a refused token: a warning naming the reason', async () => {
    nock(SERVER)
      .post('/api/v1/recall')
      .reply(403, { error: { code: 'forbidden', message: 'this App is not installed on the repository of this run' } });
    const h = await harness({ inputs: { 'server-url': SERVER, task: 't' } });
    await h.run();
    expect(h.failures).toEqual([]);
    expect(h.warnings.join('\n')).toMatch(/refused the run: this App is not installed/);
  });

  it('no id-token permission: a warning that says which permission to add', async () => {
    const h = await harness({
      inputs: { 'server-url': SERVER, task: 't' },
      getIdToken: async () => {
        throw new Error('Unable to get ACTIONS_ID_TOKEN_REQUEST_URL env variable');
      },
    });
    await h.run();
    expect(h.failures).toEqual([]);
    expect(h.warnings.join('\n')).toMatch(/permissions: id-token: write/);
  });

  it('fail-on-error: true turns a server failure into a failed step', async () => {
    nock(SERVER).post('/api/v1/recall').reply(502, 'Bad gateway');
    const h = await harness({ inputs: { 'server-url': SERVER, task: 't', 'fail-on-error': 'true' } });
    await h.run();
    expect(h.failures).toEqual(['Memory Transfer: https://memory.acme.dev/api/v1/recall answered 502: HTTP 502']);
  });

  it('a server answering in the wrong shape is a warning, nothing injected', async () => {
    nock(SERVER)
      .post('/api/v1/recall')
      .reply(200, { insights: [{ id: '<script>' }] });
    const h = await harness({ inputs: { 'server-url': SERVER, task: 't' } });
    await h.run();
    expect(h.outputs.count).toBe('0');
    expect(h.warnings.join('\n')).toMatch(/unexpected shape/);
  });

  it('a failed usage report is a warning; the insights stay injected', async () => {
    nock(SERVER)
      .post('/api/v1/recall')
      .reply(200, { insights: [insight] })
      .post('/api/v1/usage')
      .reply(500, {});
    const h = await harness({ inputs: { 'server-url': SERVER, task: 't' } });
    await h.run();
    expect(h.failures).toEqual([]);
    expect(h.outputs.count).toBe('1');
    expect(h.warnings.join('\n')).toMatch(/could not report usage/);
  });
});
