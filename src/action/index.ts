/** The Action's entry point (bundled to dist/action/index.js). */
import { parsePoolFile, recallInMemory } from './local-recall.js';
import { actionsRunnerDeps, run } from './runner.js';

// regular expressions compile straight to machine code: the engine runs each of its ~300 cue
// patterns once or twice, and V8's default (interpret first, compile again on the second run)
// costs a short run more (docs/quality.md, "Action start")
process.getBuiltinModule('node:v8').setFlagsFromString('--no-regexp-tier-up');

await run(
  actionsRunnerDeps({
    // @actions/github is loaded only for pull request events: it is a third of the start-up time
    createOctokit: async (token) => (await import('@actions/github')).getOctokit(token),
    parsePool: parsePoolFile,
    recallLocal: recallInMemory,
  }),
);
