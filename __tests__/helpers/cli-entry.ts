// The memory-transfer command from the TypeScript sources (tests run it as a real process under tsx).
import { main } from '../../src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
