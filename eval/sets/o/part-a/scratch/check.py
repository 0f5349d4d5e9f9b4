#!/usr/bin/env python3
"""Validate the part-a files against the fetched mirrors."""
import json, os, re, subprocess, collections
PART = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
M = '/work/.mirror/{}/repo'
def git(repo, *a):
    return subprocess.run(['git', '--git-dir=' + M.format(repo.replace('/', '+'))] + list(a),
                          capture_output=True, text=True)
def load(n):
    out = []
    for i, l in enumerate(open(os.path.join(PART, n)), 1):
        out.append(json.loads(l))  # raises on bad JSON
    return out
fixes, lessons, symptoms, off = (load(n) for n in ('fixes.jsonl', 'lessons.jsonl', 'symptoms.jsonl', 'offtopic-issues.jsonl'))
LABELS = {'regression-test','edge-input','type-check','lint-format','dependency-compat','build-packaging','ci-config',
          'platform-compat','concurrency-async','encoding-locale','error-handling','security-validation',
          'performance-resource','api-compat','config-env'}
FIELDS = ['repo','sha','language','date','subject','body','files','tests_changed','labels']
errs = []
assert len(fixes) == 40 and len(lessons) == 40 and len(symptoms) == 40 and len(off) == 20
per_repo = collections.Counter(f['repo'] for f in fixes)
assert all(v == 10 for v in per_repo.values()) and len(per_repo) == 4, per_repo
for f in fixes:
    r, s = f['repo'], f['sha']
    if list(f) != FIELDS: errs.append(('fields', s))
    if not re.fullmatch(r'[0-9a-f]{40}', s): errs.append(('sha', s))
    p = git(r, 'rev-list', '--parents', '-n1', s).stdout.split()
    if len(p) != 2: errs.append(('parents', s, p))
    if git(r, 'merge-base', '--is-ancestor', s, 'HEAD').returncode != 0: errs.append(('not on HEAD', s))
    files = [x for x in git(r, 'diff', '--name-only', '--no-renames', s + '^1', s).stdout.split('\n') if x]
    if files != f['files']: errs.append(('files', s))
    if git(r, 'log', '-1', '--format=%s', s).stdout.rstrip('\n') != f['subject']: errs.append(('subject', s))
    if git(r, 'log', '-1', '--format=%cI', s).stdout.strip() != f['date']: errs.append(('date', s))
    if git(r, 'log', '-1', '--format=%b', s).stdout.strip()[:1000] != f['body']: errs.append(('body', s))
    if not re.search(r'fix|bug|regression|crash|error', f['subject'], re.I): errs.append(('subject word', s))
    lp, ls = f['labels']['primary'], f['labels']['secondary']
    if lp not in LABELS or (ls is not None and ls not in LABELS) or lp == ls: errs.append(('labels', s))
for a, b in zip(fixes, lessons):
    if (a['repo'], a['sha']) != (b['repo'], b['sha']) or list(b) != ['repo','sha','lesson','key','key2']: errs.append(('lesson', a['sha']))
    for k in (b['key'], b['key2']):
        if k is not None and not re.fullmatch(r'[a-z0-9]+(-[a-z0-9]+)*', k): errs.append(('key', k))
for a, b in zip(fixes, symptoms):
    if (a['repo'], a['sha']) != (b['repo'], b['sha']) or list(b) != ['sha','repo','title','body']: errs.append(('symptom', a['sha']))
    if len(b['title']) > 100 or len(b['body']) > 600: errs.append(('symptom length', a['sha'], len(b['title']), len(b['body'])))
    if re.search(r'\b(fix|bug|regression)', b['title'] + ' ' + b['body'], re.I): errs.append(('fix word', a['sha']))
kinds = collections.Counter(o['kind'] for o in off)
assert set(kinds) <= {'feature','question','docs','chore','discussion'}
assert collections.Counter(o['repo'] for o in off) == collections.Counter({r: 5 for r in per_repo})
print('errors:', errs or 'none')
print('per repo:', dict(per_repo))
print('tests_changed:', collections.Counter((f['repo'], f['tests_changed']) for f in fixes))
print('primary:', collections.Counter(f['labels']['primary'] for f in fixes).most_common())
print('secondary:', collections.Counter(f['labels']['secondary'] for f in fixes).most_common())
print('offtopic kinds:', dict(kinds))
