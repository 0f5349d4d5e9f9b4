import { createRequire as __mtCreateRequire } from 'node:module';
const require = __mtCreateRequire(import.meta.url);
import"./chunk-VRLUD2GJ.js";var t=()=>{throw new Error("@secretlint/profiler is not part of the Action bundle")},r=t,e={},o=[];export{r as lintSource,o as rules,e as secretLintProfiler};
