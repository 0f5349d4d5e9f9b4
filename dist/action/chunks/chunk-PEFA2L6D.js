import { createRequire as __mtCreateRequire } from 'node:module';
const require = __mtCreateRequire(import.meta.url);
var n=class extends Error{constructor(t,c){super(t);this.code=c;this.name=new.target.name}code},o=class extends n{constructor(s,t="bad-input"){super(s,t)}};var r=class extends n{constructor(t,c){super(t,c===401?"unauthenticated":"forbidden");this.status=c}status};var i=class extends n{constructor(t,c){super(t,"upstream");this.retryable=c}retryable};function a(e){return e instanceof n?e.message:e instanceof Error?e.message.split(`
`)[0]??String(e):String(e)}export{o as a,r as b,i as c,a as d};
