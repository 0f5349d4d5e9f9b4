#!/usr/bin/env python3
"""Validate the part-b files against the fetched mirrors."""
import json, os, re, subprocess, collections, sys
HERE = os.path.dirname(os.path.abspath(__file__)); D = os.path.join(HERE, "..")
LABELS = {"regression-test","edge-input","type-check","lint-format","dependency-compat","build-packaging","ci-config",
          "platform-compat","concurrency-async","encoding-locale","error-handling","security-validation",
          "performance-resource","api-compat","config-env"}
HELD = {"axios/axios","expressjs/express","pallets/flask","psf/requests","spf13/cobra","BurntSushi/ripgrep",
        "pytest-dev/pytest","eslint/eslint","nodeca/js-yaml","ladjs/superagent","Delgan/loguru","go-playground/validator"}
def git(repo, *a):
    return subprocess.run(["git","--git-dir=/work/.mirror/%s/repo" % repo.replace("/","+")]+list(a),
                          check=True,capture_output=True,text=True,errors="replace").stdout
def load(n):
    out=[]
    for i,l in enumerate(open(os.path.join(D,n)),1):
        out.append(json.loads(l))
    return out
err=[]
fx=load("fixes.jsonl"); ls=load("lessons.jsonl"); sy=load("symptoms.jsonl"); off=load("offtopic-issues.jsonl")
assert len(fx)==40 and len(ls)==40 and len(sy)==40 and len(off)==20
FIELDS=["repo","sha","language","date","subject","body","files","tests_changed","labels"]
per=collections.Counter()
# repos used elsewhere
used=set()
import glob
for p in ["/work/shared/eval-dev/fixes.jsonl"]+glob.glob("/work/main/eval/sets/*/*.jsonl"):
    if "/o/" in p: continue
    for l in open(p):
        l=l.strip()
        if l:
            try: used.add(json.loads(l).get("repo"))
            except Exception: pass
for f in fx:
    if list(f)!=FIELDS: err.append(("fields",f["sha"]))
    r,s=f["repo"],f["sha"]; per[r]+=1
    if r in HELD or r in used: err.append(("repo not allowed",r))
    if not re.fullmatch(r"[0-9a-f]{40}",s): err.append(("sha",s))
    if git(r,"cat-file","-t",s).strip()!="commit": err.append(("nocommit",s))
    par=git(r,"rev-list","--parents","-n","1",s).split()[1:]
    if len(par)!=1: err.append(("parents",s))
    if subprocess.run(["git","--git-dir=/work/.mirror/%s/repo"%r.replace("/","+"),"merge-base","--is-ancestor",s,"HEAD"]).returncode: err.append(("not on HEAD",s))
    files=[x for x in git(r,"diff","--name-only","--no-renames",s+"^1",s).splitlines() if x]
    if files!=f["files"]: err.append(("files",s))
    if git(r,"show","-s","--format=%cI",s).strip()!=f["date"]: err.append(("date",s))
    if git(r,"show","-s","--format=%s",s).rstrip("\n")!=f["subject"]: err.append(("subject",s))
    if git(r,"show","-s","--format=%b",s).strip()[:1000]!=f["body"] or len(f["body"])>1000: err.append(("body",s))
    if not re.search(r"fix|bug|regression|crash|error",f["subject"],re.I): err.append(("subject word",s))
    p,q=f["labels"]["primary"],f["labels"]["secondary"]
    if p not in LABELS or (q is not None and q not in LABELS) or p==q: err.append(("label",s))
    if q=="regression-test" and not f["tests_changed"]: err.append(("rt without tests",s))
for r,n in per.items():
    if n!=10: err.append(("count",r,n))
for f,l,y in zip(fx,ls,sy):
    if (l["repo"],l["sha"])!=(f["repo"],f["sha"]) or list(l)!=["repo","sha","lesson","key","key2"]: err.append(("lesson order",f["sha"]))
    for k in (l["key"],l["key2"]):
        if k is not None and not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*",k): err.append(("key",k))
    if (y["sha"],y["repo"])!=(f["sha"],f["repo"]) or list(y)!=["sha","repo","title","body"]: err.append(("symptom order",f["sha"]))
kinds=collections.Counter(o["kind"] for o in off); orep=collections.Counter(o["repo"] for o in off)
if set(orep)!=set(per) or any(v!=5 for v in orep.values()): err.append(("offtopic repos",orep))
if not set(kinds)<= {"feature","question","docs","chore","discussion"}: err.append(("kinds",kinds))
for o in off:
    if list(o)!=["repo","title","body","kind"]: err.append(("off fields",o["title"]))
print("repos", dict(per)); print("offtopic kinds", dict(kinds))
pc=collections.Counter(f["labels"]["primary"] for f in fx); sc=collections.Counter(f["labels"]["secondary"] for f in fx)
print("primary", pc.most_common()); print("secondary", sc.most_common())
print("tests_changed", sum(f["tests_changed"] for f in fx))
print("ERRORS", err if err else "none")
sys.exit(1 if err else 0)
