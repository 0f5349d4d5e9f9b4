import { createRequire as __mtCreateRequire } from 'node:module';
const require = __mtCreateRequire(import.meta.url);
import"./chunk-VRLUD2GJ.js";var e=()=>{throw new Error("@secretlint/secretlint-rule-preset-recommend is not part of the Action bundle")},t=e,r={},o=[];export{t as lintSource,o as rules,r as secretLintProfiler};
