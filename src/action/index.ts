/** The Action's entry point (bundled to dist/action/index.js). */
import { getOctokit } from '@actions/github';
import { parsePoolFile, recallInMemory } from './local-recall.js';
import { actionsRunnerDeps, run } from './runner.js';

await run(
  actionsRunnerDeps({
    createOctokit: (token) => getOctokit(token),
    parsePool: parsePoolFile,
    recallLocal: recallInMemory,
  }),
);
