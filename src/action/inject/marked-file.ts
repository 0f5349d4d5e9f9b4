/** Injects into a marker-delimited section of a file the user owns (AGENTS.md, CONVENTIONS.md…). */
import path from 'node:path';
import type { RenderedInjection } from '../../core/rendering/render-injection.js';
import { hasMarkers, upsertMarkedSection } from './marked-section.js';
import { readIfExists, writeIfChanged, type FileChange } from './target.js';

/**
 * Upserts the section. With nothing to inject, a file without our markers (missing, or the
 * repository's own) is left as it is, so the working tree stays clean, and an existing section is
 * emptied (stale insights never linger).
 */
export async function injectMarkedFile(
  file: string,
  rendered: RenderedInjection,
  dryRun: boolean,
  label = path.basename(file),
): Promise<FileChange> {
  const existing = await readIfExists(file);
  if (rendered.markdown === '' && (existing === undefined || !hasMarkers(existing)))
    return { path: file, change: 'unchanged' };
  return writeIfChanged(file, upsertMarkedSection(existing, rendered.markdown, label), dryRun);
}
