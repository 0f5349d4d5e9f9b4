/**
 * Checks the engine's knowledge (src/core/knowledge/kinds/) against its schema: run by
 * `npm run check-knowledge` and `npm run check-dist`, so a bad entry fails the build, not a start.
 */
import { knowledgeProblems } from '../src/core/knowledge/schema.js';

const problems = knowledgeProblems();
if (problems.length > 0) {
  console.error(`The knowledge has ${problems.length} problem(s):\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log('knowledge: every entry is well formed');
