/**
 * The ecosystem of a fix (language and test tool) from its file names and the repository's
 * language. Used for `lang:` and `tool:` tags and a generic "how to run it" qualifier. Pure. The
 * extensions, tools and hints are in src/knowledge/ecosystems.ts.
 */
import { DEFAULT_TOOL, EXTENSIONS, HINTS, TOOL_FILES, type HintKind } from './ecosystems.js';

export type { HintKind };

export interface Ecosystem {
  /** lower-case language name, e.g. "typescript" */
  language?: string;
  /** the usual test runner or package tool, e.g. "npm", "pytest", "go", "cargo" */
  tool?: string;
}

function baseName(path: string): string {
  return path.split('/').pop() ?? path;
}

/** The language most of the changed source files are written in, else the repository's language. */
export function detectEcosystem(files: readonly string[], repoLanguage?: string): Ecosystem {
  const counts = new Map<string, number>();
  for (const file of files) {
    const ext = /\.([a-z0-9]+)$/i.exec(baseName(file))?.[1]?.toLowerCase();
    const lang = ext === undefined ? undefined : EXTENSIONS[ext];
    if (lang) counts.set(lang, (counts.get(lang) ?? 0) + 1);
  }
  let language = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const declared = repoLanguage?.trim().toLowerCase().replace(/\s+/g, '-');
  if (declared && (language === undefined || (declared === 'typescript' && language === 'javascript')))
    language = declared;

  const names = new Set(files.map(baseName));
  const named = TOOL_FILES.find(([, toolFiles]) => toolFiles.some((name) => names.has(name)))?.[0];
  const tool = named ?? (language === undefined ? undefined : DEFAULT_TOOL[language]);
  return { ...(language ? { language } : {}), ...(tool ? { tool } : {}) };
}

/** A generic sentence on how to run the check in this ecosystem (tool names only, no project names). */
export function runHint(ecosystem: Ecosystem, kind: HintKind = 'test'): string | undefined {
  const hint = ecosystem.tool === undefined ? undefined : HINTS[ecosystem.tool];
  if (!hint) return undefined;
  return `In ${hint.where}, run it with ${hint[kind] ?? hint.test}.`;
}
