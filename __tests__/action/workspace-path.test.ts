// The Action never writes in a version-control folder of the workspace, however the path is spelled.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetFor } from '../../src/action/inject/index.js';
import { resolveInWorkspace, resolveWritableInWorkspace } from '../../src/action/workspace-path.js';

let workspace: string;
beforeAll(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'mt-ws-'));
  await mkdir(path.join(workspace, '.git', 'hooks'), { recursive: true });
  await writeFile(path.join(workspace, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  await mkdir(path.join(workspace, 'docs'));
  await mkdir(path.join(workspace, 'vendor', 'lib', '.git'), { recursive: true });
  // links a hostile checkout could carry: a folder into .git, a file into a hook not yet there
  await symlink(path.join(workspace, '.git', 'hooks'), path.join(workspace, 'hooks-link'));
  await symlink('.git/hooks/post-checkout', path.join(workspace, 'NOTES.md'));
  await symlink('.git/hooks/pre-commit', path.join(workspace, 'CONVENTIONS.md'));
});
afterAll(() => rm(workspace, { recursive: true, force: true }));

const REFUSED = [
  '.git/hooks/pre-commit',
  './.git/hooks/pre-commit',
  '.GIT/hooks/pre-commit',
  '.Git/Hooks/Pre-Commit',
  'docs/../.git/hooks/pre-commit',
  '.git/hooks/',
  '.git//hooks///pre-commit',
  '.git',
  '.git/',
  '.git./hooks/pre-commit',
  '.git /hooks/pre-commit',
  '.git::$INDEX_ALLOCATION/hooks/pre-commit',
  'GIT~1/hooks/pre-commit',
  '.g\u200cit/hooks/pre-commit',
  '.git\\hooks\\pre-commit',
  'vendor/lib/.git/config',
  '.hg/hgrc',
  '.svn/entries',
  '.bzr/branch/branch.conf',
  '_darcs/prefs/defaults',
  '.jj/repo/config.toml',
  'CVS/Entries',
];

describe('resolveWritableInWorkspace', () => {
  it.each(REFUSED)('refuses %j, naming the folder', (spelling) => {
    expect(() => resolveWritableInWorkspace(workspace, spelling, 'target')).toThrow(
      /target: .* is in a version-control folder/,
    );
  });

  it('refuses an absolute path into .git', () => {
    expect(() =>
      resolveWritableInWorkspace(workspace, path.join(workspace, '.git/hooks/pre-commit'), 'target'),
    ).toThrow(/version-control folder \(\.git\)/);
  });

  it('refuses a symbolic link into .git: a folder, an existing hook, a hook not there yet', () => {
    expect(() => resolveWritableInWorkspace(workspace, 'hooks-link/pre-commit', 'target')).toThrow(
      /version-control folder \(\.git\)/,
    );
    expect(() => resolveWritableInWorkspace(workspace, 'CONVENTIONS.md', 'target')).toThrow(
      /version-control folder \(\.git\)/,
    );
    expect(() => resolveWritableInWorkspace(workspace, 'NOTES.md', 'target')).toThrow(
      /symbolic link that leads nowhere/,
    );
  });

  it.each([
    'AGENTS.md',
    '.github/instructions/memory-transfer.instructions.md',
    '.gitignore',
    '.gitlab/notes.md',
    'docs/git/CONVENTIONS.md',
    '.vscode/mcp.json',
  ])('accepts %j', (spelling) => {
    expect(resolveWritableInWorkspace(workspace, spelling, 'target')).toBe(path.join(workspace, spelling));
  });

  it('reading is not restricted to outside .git (a pool file is only read)', () => {
    expect(resolveInWorkspace(workspace, '.git/hooks/pre-commit', 'pool')).toBe(
      path.join(workspace, '.git/hooks/pre-commit'),
    );
  });
});

describe('target: file:PATH', () => {
  it.each(['file:.git/hooks/pre-commit', 'file: ./.GIT/hooks/pre-commit', 'file:.hg/hgrc'])(
    'refuses %j before anything runs',
    (value) => {
      expect(() => targetFor(value)).toThrow(/target: .* is in a version-control folder/);
    },
  );
});
