import { createRequire as __mtCreateRequire } from 'node:module';
const require = __mtCreateRequire(import.meta.url);
var e=["failure","feature","question","docs","chore","discussion"],t=["trajectory","workflow","summary","insight"],r=["public","internal","private"],n=["proposed","active","rejected","archived"],i=["pull_request","issue","commit","check","import"],s=["lint","types","unit","e2e","build","other"],o="rules@1",a=["rules","model","learned"];export{e as a,t as b,r as c,n as d,i as e,s as f,o as g,a as h};
