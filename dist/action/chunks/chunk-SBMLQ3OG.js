import { createRequire as __mtCreateRequire } from 'node:module';
const require = __mtCreateRequire(import.meta.url);
var n=class extends Error{constructor(t,c){super(t);this.code=c;this.name=new.target.name}code},o=class extends n{constructor(s,t="bad-input"){super(s,t)}};var r=class extends n{constructor(t,c){super(t,c===401?"unauthenticated":"forbidden");this.status=c}status},i=class extends n{constructor(s){super(s,"not-found")}},a=class extends n{constructor(t,c){super(t,"upstream");this.retryable=c}retryable};function u(e){return e instanceof n?e.message:e instanceof Error?e.message.split(`
`)[0]??String(e):String(e)}export{n as a,o as b,r as c,i as d,a as e,u as f};
