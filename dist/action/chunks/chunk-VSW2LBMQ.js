import { createRequire as __mtCreateRequire } from 'node:module';
const require = __mtCreateRequire(import.meta.url);
var e=["trajectory","workflow","summary","insight"],t=["public","internal","private"],r=["proposed","active","rejected","archived"],i=["pull_request","issue","commit","check","import"];export{e as a,t as b,r as c,i as d};
