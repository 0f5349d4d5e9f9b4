#!/usr/bin/env python3
"""Generate fixes.jsonl from the mirrors and the hand labels below."""
import json, subprocess, re, os

MIRROR = '/work/.mirror/{}/repo'
OUT = os.path.join(os.path.dirname(__file__), '..', 'fixes.jsonl')

# (repo, language, short sha, primary, secondary)
PICKS = [
 ('nodeca/js-yaml', 'JavaScript', [
   ('dc0b4c5', 'edge-input', 'regression-test'),
   ('6030fa6', 'edge-input', 'regression-test'),
   ('c092026', 'edge-input', 'regression-test'),
   ('14e3b76', 'encoding-locale', 'regression-test'),
   ('0375c5e', 'build-packaging', 'platform-compat'),
   ('2b5e2b3', 'platform-compat', None),
   ('698f65b', 'error-handling', 'regression-test'),
   ('10be97e', 'api-compat', 'regression-test'),
   ('dc44dd3', 'config-env', 'regression-test'),
   ('383665f', 'security-validation', 'regression-test'),
 ]),
 ('ladjs/superagent', 'JavaScript', [
   ('35d76ca', 'performance-resource', None),
   ('7e771f5', 'encoding-locale', 'regression-test'),
   ('8f5abf1', 'dependency-compat', None),
   ('c9ea75d', 'platform-compat', None),
   ('2377e62', 'config-env', None),
   ('56ce517', 'error-handling', 'regression-test'),
   ('1c39444', 'ci-config', 'dependency-compat'),
   ('e98489a', 'security-validation', 'regression-test'),
   ('ef969fa', 'concurrency-async', 'regression-test'),
   ('259a43f', 'edge-input', 'regression-test'),
 ]),
 ('Delgan/loguru', 'Python', [
   ('3ecedbe', 'build-packaging', None),
   ('397b51f', 'platform-compat', None),
   ('c102e0a', 'error-handling', 'regression-test'),
   ('f1e94ab', 'platform-compat', 'regression-test'),
   ('91e3646', 'concurrency-async', 'regression-test'),
   ('dfe9607', 'encoding-locale', None),
   ('437b091', 'ci-config', None),
   ('92952b9', 'config-env', 'regression-test'),
   ('4692fa7', 'type-check', 'regression-test'),
   ('7b30cd0', 'edge-input', 'regression-test'),
 ]),
 ('go-playground/validator', 'Go', [
   ('e0e8649', 'edge-input', 'regression-test'),
   ('2367d30', 'build-packaging', None),
   ('c6f8637', 'encoding-locale', 'regression-test'),
   ('842a796', 'edge-input', 'regression-test'),
   ('3094d59', 'edge-input', None),
   ('13130d2', 'error-handling', 'regression-test'),
   ('6a38036', 'platform-compat', None),
   ('e8627a1', 'api-compat', 'regression-test'),
   ('cf37fce', 'lint-format', 'dependency-compat'),
   ('0364541', 'security-validation', 'regression-test'),
 ]),
]

def git(repo, *args):
    return subprocess.run(['git', '--git-dir=' + MIRROR.format(repo.replace('/', '+'))] + list(args),
                          capture_output=True, text=True, check=True).stdout

CONFIG_EXT = ('.json', '.yml', '.yaml', '.toml', '.ini', '.cfg')

def is_test(path):
    parts = path.split('/')
    name = parts[-1]
    if name.endswith(CONFIG_EXT):
        return False
    if any(p in ('test', 'tests', '__tests__', 'spec') for p in parts[:-1]):
        return True
    if re.match(r'test_.*\.py$', name) or name.endswith('_test.go'):
        return True
    if re.search(r'\.(test|spec)\.', name) or name in ('test.js', 'test.ts'):
        return True
    if name.endswith('.test-d.ts') or name.endswith('.tst.ts'):
        return True
    return False

def main():
    out = []
    for repo, lang, picks in PICKS:
        for short, prim, sec in picks:
            sha = git(repo, 'rev-parse', short + '^{commit}').strip()
            subject = git(repo, 'log', '-1', '--format=%s', sha).rstrip('\n')
            body = git(repo, 'log', '-1', '--format=%b', sha).strip()[:1000]
            date = git(repo, 'log', '-1', '--format=%cI', sha).strip()
            files = [f for f in git(repo, 'diff', '--name-only', '--no-renames', sha + '^1', sha).split('\n') if f]
            out.append({'repo': repo, 'sha': sha, 'language': lang, 'date': date, 'subject': subject,
                        'body': body, 'files': files, 'tests_changed': any(is_test(f) for f in files),
                        'labels': {'primary': prim, 'secondary': sec}})
    with open(OUT, 'w') as f:
        for d in out:
            f.write(json.dumps(d, ensure_ascii=False) + '\n')
    for d in out:
        print(d['repo'][:12], d['sha'][:8], d['date'][:10], d['tests_changed'], d['labels']['primary'], d['labels']['secondary'], '|', d['subject'][:60])

main()
