import { createRequire as __mtCreateRequire } from 'node:module';
const require = __mtCreateRequire(import.meta.url);
import"./chunk-VRLUD2GJ.js";var t=()=>{throw new Error("@secretlint/core is not part of the Action bundle")},e=t,o={},r=[];export{e as lintSource,r as rules,o as secretLintProfiler};
