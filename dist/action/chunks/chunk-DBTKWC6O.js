import { createRequire as __mtCreateRequire } from 'node:module';
const require = __mtCreateRequire(import.meta.url);
var e=["failure","feature","question","docs","chore","discussion"],t=["trajectory","workflow","summary","insight"],r=["public","internal","private"],n=["proposed","active","rejected","archived"],i=["pull_request","issue","commit","check","import"];var s="rules@1",o=["rules","model","learned"];export{e as a,t as b,r as c,n as d,i as e,s as f,o as g};
