import { createRequire as __mtCreateRequire } from 'node:module';
const require = __mtCreateRequire(import.meta.url);
var e=["trajectory","workflow","summary","insight"],t=["public","internal","private"],r=["proposed","active","rejected","archived"],n=["pull_request","issue","commit","check","import"];var i="rules@1",s=["rules","model","learned"];export{e as a,t as b,r as c,n as d,i as e,s as f};
