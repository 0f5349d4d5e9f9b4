#!/usr/bin/env python3
"""Generate ../fixes.jsonl from the fetched mirrors. Labels are hand-assigned below."""
import json, os, re, subprocess, sys

MIRROR = "/work/.mirror/{}/repo"
LANG = {"Textualize/rich": "Python", "gofiber/fiber": "Go",
        "time-rs/time": "Rust", "rust-lang/regex": "Rust"}

# (repo, sha prefix, primary, secondary)
PICKS = [
    ("Textualize/rich", "58b7224e", "lint-format", None),
    ("Textualize/rich", "f7c07831", "error-handling", "regression-test"),
    ("Textualize/rich", "40dbc0a6", "concurrency-async", None),
    ("Textualize/rich", "a51bca4b", "ci-config", None),
    ("Textualize/rich", "02dffcf9", "edge-input", "regression-test"),
    ("Textualize/rich", "50d2a457", "type-check", None),
    ("Textualize/rich", "59b1aca6", "encoding-locale", "regression-test"),
    ("Textualize/rich", "7d79acba", "config-env", None),
    ("Textualize/rich", "b41cb481", "platform-compat", None),
    ("Textualize/rich", "60b064a7", "edge-input", "regression-test"),

    ("gofiber/fiber", "07563a184", "security-validation", None),
    ("gofiber/fiber", "4dcb49048", "concurrency-async", "regression-test"),
    ("gofiber/fiber", "a95e37192", "error-handling", None),
    ("gofiber/fiber", "3e8227d7e", "platform-compat", None),
    ("gofiber/fiber", "74a20b458", "api-compat", "regression-test"),
    ("gofiber/fiber", "e49880c5d", "encoding-locale", "regression-test"),
    ("gofiber/fiber", "9761f4e79", "build-packaging", "platform-compat"),
    ("gofiber/fiber", "9292a36e2", "config-env", None),
    ("gofiber/fiber", "283ef3219", "edge-input", "regression-test"),
    ("gofiber/fiber", "0f58b6e26", "performance-resource", "regression-test"),

    ("time-rs/time", "5a19e537", "regression-test", None),
    ("time-rs/time", "9dc99dc7", "encoding-locale", "regression-test"),
    ("time-rs/time", "d94faf73", "error-handling", None),
    ("time-rs/time", "0e99ae76", "edge-input", "regression-test"),
    ("time-rs/time", "6c2b602a", "build-packaging", "platform-compat"),
    ("time-rs/time", "b3b5fb9d", "edge-input", "regression-test"),
    ("time-rs/time", "d0d91e9a", "api-compat", "regression-test"),
    ("time-rs/time", "c57284f6", "edge-input", "regression-test"),
    ("time-rs/time", "f1898868", "dependency-compat", None),
    ("time-rs/time", "0e5b04f7", "ci-config", None),

    ("rust-lang/regex", "a3459ce", "encoding-locale", None),
    ("rust-lang/regex", "cd05a24", "edge-input", "regression-test"),
    ("rust-lang/regex", "65d6bba", "api-compat", "regression-test"),
    ("rust-lang/regex", "0abcada", "ci-config", None),
    ("rust-lang/regex", "0c6dfbc", "build-packaging", None),
    ("rust-lang/regex", "ae70b41", "security-validation", "regression-test"),
    ("rust-lang/regex", "4e89cbf", "performance-resource", None),
    ("rust-lang/regex", "466e42c", "edge-input", "regression-test"),
    ("rust-lang/regex", "4ae1472", "platform-compat", None),
    ("rust-lang/regex", "4733e28", "api-compat", "regression-test"),
]

def git(repo, *args):
    return subprocess.run(["git", "--git-dir=" + MIRROR.format(repo.replace("/", "+"))] + list(args),
                          check=True, capture_output=True, text=True, errors="replace").stdout

TEST_DIRS = {"test", "tests", "__tests__", "spec"}
CONFIG_EXT = (".json", ".yml", ".yaml", ".toml", ".lock", ".ini", ".cfg")

def is_test_path(p):
    parts = p.split("/")
    name = parts[-1]
    if name.endswith(CONFIG_EXT):
        return False
    if any(d in TEST_DIRS for d in parts[:-1]):
        return True
    if re.fullmatch(r"test_.*\.py", name) or name.endswith("_test.go"):
        return True
    if re.search(r"\.(test|spec)\.", name) or name in ("test.js", "test.ts"):
        return True
    if name.endswith(".test-d.ts") or name.endswith(".tst.ts"):
        return True
    return False

def _test_start(text):
    """Line number (1-based) of the first #[cfg(test)] / #[test] attribute, or None."""
    for i, l in enumerate(text.splitlines(), 1):
        if re.match(r"\s*#\[(test|cfg\(test\))\]", l):
            return i
    return None

def rust_test_code(repo, sha):
    """True if the patch adds or removes lines of #[test]/#[cfg(test)] code in a .rs source file
    (the attribute itself, or lines at/after the file's first such attribute, where the test
    module conventionally sits)."""
    files = [f for f in git(repo, "diff", "--name-only", "--no-renames", sha + "^1", sha).splitlines()
             if f.endswith(".rs") and not is_test_path(f)]
    for f in files:
        diff = git(repo, "diff", "-U0", "--no-renames", sha + "^1", sha, "--", f)
        if any(re.match(r"^[+-](?![+-]).*#\[(test|cfg\(test\))\]", l) for l in diff.splitlines()):
            return True
        def content(rev):
            try:
                return git(repo, "show", rev + ":" + f)
            except subprocess.CalledProcessError:
                return ""
        new_start = _test_start(content(sha))
        old_start = _test_start(content(sha + "^1"))
        for m in re.finditer(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", diff, re.M):
            o, oc, n, nc = int(m.group(1)), int(m.group(2) or 1), int(m.group(3)), int(m.group(4) or 1)
            if nc and new_start and n + nc - 1 >= new_start:
                return True
            if oc and old_start and o + oc - 1 >= old_start:
                return True
    return False

def main():
    out = []
    for repo, pre, prim, sec in PICKS:
        sha = git(repo, "rev-parse", pre + "^{commit}").strip()
        parents = git(repo, "rev-list", "--parents", "-n", "1", sha).split()[1:]
        assert len(parents) == 1, (repo, sha, parents)
        date = git(repo, "show", "-s", "--format=%cI", sha).strip()
        subject = git(repo, "show", "-s", "--format=%s", sha).rstrip("\n")
        body = git(repo, "show", "-s", "--format=%b", sha).strip()[:1000]
        files = [f for f in git(repo, "diff", "--name-only", "--no-renames", sha + "^1", sha).splitlines() if f]
        tests = any(is_test_path(f) for f in files) or rust_test_code(repo, sha)
        out.append({"repo": repo, "sha": sha, "language": LANG[repo], "date": date,
                    "subject": subject, "body": body, "files": files, "tests_changed": tests,
                    "labels": {"primary": prim, "secondary": sec}})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixes.jsonl")
    with open(path, "w") as f:
        for o in out:
            f.write(json.dumps(o, ensure_ascii=False) + "\n")
    for o in out:
        print(o["repo"][:14], o["sha"][:9], o["date"][:10], o["tests_changed"], o["labels"]["primary"], o["labels"]["secondary"], "|", o["subject"][:70])

main()
