/** The Action's entry point (bundled to dist/action/index.js). */
import { parsePoolFile, recallInMemory } from './local-recall.js';
import { actionsRunnerDeps, run } from './runner.js';

// A run is one short process, so two V8 defaults made for long-lived ones cost it more than they
// save (docs/quality.md, "Action start"): regular expressions compile straight to machine code
// (the engine runs each of its ~300 cue patterns once or twice; by default V8 interprets a pattern
// first and compiles it again on its second run), and no function is recompiled by the
// optimizing compiler (TurboFan): −16 % of a start's instructions on Node 20, −8 % on Node 24,
// whose mid-tier compiler (Maglev) still runs.
process.getBuiltinModule('node:v8').setFlagsFromString('--no-regexp-tier-up --no-opt');

await run(
  actionsRunnerDeps({
    // @actions/github is loaded only for pull request events: it is a third of the start-up time
    createOctokit: async (token) => (await import('@actions/github')).getOctokit(token),
    parsePool: parsePoolFile,
    recallLocal: recallInMemory,
    // the Action's own MCP server, beside this file in dist/action/, run by this very node
    mcpServer: {
      node: process.execPath,
      script: process.getBuiltinModule('node:url').fileURLToPath(new URL('./memory-transfer-mcp.js', import.meta.url)),
    },
  }),
);
