#!/usr/bin/env node
// The memory-transfer command. The TypeScript is compiled to build/ by `npm install` (prepare).
import { main } from '../build/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
