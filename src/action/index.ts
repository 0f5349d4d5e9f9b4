/** The Action's entry point (bundled to dist/action/index.js). */
import { parsePoolFile, recallInMemory } from './local-recall.js';
import { actionsRunnerDeps, run } from './runner.js';

await run(
  actionsRunnerDeps({
    // @actions/github is loaded only for pull request events: it is a third of the start-up time
    createOctokit: async (token) => (await import('@actions/github')).getOctokit(token),
    parsePool: parsePoolFile,
    recallLocal: recallInMemory,
  }),
);
