/** What every injection adapter implements, and the small file helper they share. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RenderedInjection } from '../../core/rendering/render-injection.js';

export interface InjectionEnv {
  /** GITHUB_WORKSPACE: the checked-out repository */
  workspace: string;
  /** CODEX_HOME, or ~/.codex */
  codexHome: string;
  /** dry run: compute everything, write nothing */
  dryRun: boolean;
}

export interface FileChange {
  path: string;
  change: 'created' | 'updated' | 'unchanged';
}

export interface InjectionResult {
  files: FileChange[];
}

export interface InjectionTarget {
  /** as given in the `target` input */
  readonly name: string;
  /** the block for this target never exceeds this many characters */
  readonly maxChars: number;
  /** the block goes through a command-line argument (see RenderOptions.argumentSafe) */
  readonly argumentSafe?: boolean;
  inject(rendered: RenderedInjection, env: InjectionEnv): Promise<InjectionResult>;
}

export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Writes only when the content changed (and never in a dry run); reports what it did or would do. */
export async function writeIfChanged(file: string, content: string, dryRun: boolean): Promise<FileChange> {
  const before = await readIfExists(file);
  if (before === content) return { path: file, change: 'unchanged' };
  if (!dryRun) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content, 'utf8');
  }
  return { path: file, change: before === undefined ? 'created' : 'updated' };
}

/**
 * A file the Action owns whole (Copilot instructions, OpenHands microagent): written with the
 * block; with nothing to inject, an existing one is emptied to its header and a missing one is
 * not created.
 */
export async function writeOwnedFile(
  file: string,
  header: string,
  markdown: string,
  dryRun: boolean,
): Promise<FileChange> {
  if (markdown === '' && (await readIfExists(file)) === undefined) return { path: file, change: 'unchanged' };
  return writeIfChanged(file, `${header}${markdown}`, dryRun);
}
