// The folders of src/ import one way: core at the bottom, the ports above it, the adapters above
// the ports, the services above the adapters and the edges on top (docs/architecture.md).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const src = join(import.meta.dirname, '..', '..', 'src');

/** The folders of src/ each folder may import from; an edge ('*') may import any of them. */
const MAY_IMPORT: Record<string, readonly string[] | '*'> = {
  core: [],
  ports: ['core'],
  config: ['core', 'ports'],
  security: ['core', 'ports'],
  store: ['core', 'ports'],
  sources: ['core', 'ports'],
  embedding: ['core', 'ports', 'config'],
  abstraction: ['core', 'ports', 'config', 'security'],
  github: ['core', 'ports', 'store'],
  services: ['core', 'ports', 'security', 'store', 'abstraction'],
  mcp: '*',
  action: '*',
  app: '*',
  cli: '*',
};

/** Inside core: the role folders each part of core may import; the root (the model) imports none of them. */
const CORE_MAY_IMPORT: Record<string, readonly string[]> = {
  model: [],
  knowledge: ['model'],
  retrieval: ['model', 'knowledge'],
  rendering: ['model', 'knowledge'],
};

/** How one table of layers is read: where a path stands in it, and what a missing place is told. */
interface Layers {
  table: Record<string, readonly string[] | '*'>;
  placeOf: (path: string) => string;
  unknown: (place: string) => string;
  none: string;
}

const SRC_LAYERS: Layers = {
  table: MAY_IMPORT,
  placeOf: folderOf,
  unknown: (place) => `src/${place}/ is in no layer: add it to MAY_IMPORT in __tests__/repo/layers.test.ts`,
  none: 'no other folder',
};

const CORE_ROLES: Layers = {
  table: CORE_MAY_IMPORT,
  placeOf: roleOf,
  unknown: (place) =>
    `src/core/${place}/ is no role of core: add it to CORE_MAY_IMPORT in __tests__/repo/layers.test.ts`,
  none: 'no role folder',
};

/** "src/store/x.ts imports ../services/y.js (store may import core, ports)" for each import against a table */
function violations(files: { path: string; text: string }[], layers: Layers): string[] {
  return files.flatMap(({ path, text }) => {
    const from = layers.placeOf(path);
    const allowed = layers.table[from];
    if (!allowed) return [layers.unknown(from)];
    return ts
      .preProcessFile(text, true, true)
      .importedFiles.map((imported) => imported.fileName)
      .filter((name) => name.startsWith('.'))
      .flatMap((name) => {
        const to = layers.placeOf(resolve(dirname(path), name));
        if (to === from || allowed === '*' || allowed.includes(to)) return [];
        const may = allowed.length ? allowed.join(', ') : layers.none;
        return [`src/${relative(src, path)} imports ${name} (${from} may import ${may})`];
      });
  });
}

const layerViolations = (files: { path: string; text: string }[]) => violations(files, SRC_LAYERS);
const coreRoleViolations = (files: { path: string; text: string }[]) =>
  violations(
    files.filter(({ path }) => folderOf(path) === 'core'),
    CORE_ROLES,
  );

/** the role folder of core that holds a path: knowledge, retrieval, rendering, or the model at its root */
function roleOf(path: string): string {
  const parts = relative(join(src, 'core'), path).split(/[\\/]/);
  return parts.length > 1 ? parts[0]! : 'model';
}

/** the folder right under src/ that holds a path */
function folderOf(path: string): string {
  return relative(src, path).split(/[\\/]/)[0] ?? '';
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the layers of src/', () => {
  it('no module imports a folder above its own', () => {
    const files = sourceFiles(src).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    expect(files.length).toBeGreaterThan(100);
    expect(layerViolations(files)).toEqual([]);
  });

  it('names an import against the layers, a type-only or dynamic one too, and a folder in no layer', () => {
    const store = join(src, 'store', 'x.ts');
    const core = join(src, 'core', 'sub', 'y.ts');
    expect(
      layerViolations([
        { path: store, text: "import type { Logger } from '../services/z.js';\nimport { a } from './a.js';" },
        { path: core, text: "const m = await import('../../store/b.js');\nimport { c } from '../c.js';" },
        { path: join(src, 'cli', 'z.ts'), text: "import { d } from '../app/d.js';" },
        { path: join(src, 'knowledge', 'k.ts'), text: '' },
      ]),
    ).toEqual([
      'src/store/x.ts imports ../services/z.js (store may import core, ports)',
      'src/core/sub/y.ts imports ../../store/b.js (core may import no other folder)',
      'src/knowledge/ is in no layer: add it to MAY_IMPORT in __tests__/repo/layers.test.ts',
    ]);
  });

  it('inside core, knowledge reads the model only, and retrieval and rendering never import each other', () => {
    const files = sourceFiles(join(src, 'core')).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    expect(new Set(files.map(({ path }) => roleOf(path)))).toEqual(
      new Set(['model', 'knowledge', 'retrieval', 'rendering']),
    );
    expect(coreRoleViolations(files)).toEqual([]);
  });

  it('names an import against the roles of core', () => {
    expect(
      coreRoleViolations([
        { path: join(src, 'core', 'rendering', 'a.ts'), text: "import { rank } from '../retrieval/ranking.js';" },
        { path: join(src, 'core', 'types.ts'), text: "import { x } from './knowledge/lessons.js';" },
        {
          path: join(src, 'core', 'knowledge', 'kinds', 'k.ts'),
          text: "import { y } from '../../retrieval/top-k.js';",
        },
        { path: join(src, 'core', 'retrieval', 'b.ts'), text: "import { z } from '../knowledge/routines.js';" },
        { path: join(src, 'core', 'misc', 'c.ts'), text: '' },
      ]),
    ).toEqual([
      'src/core/rendering/a.ts imports ../retrieval/ranking.js (rendering may import model, knowledge)',
      'src/core/types.ts imports ./knowledge/lessons.js (model may import no role folder)',
      'src/core/knowledge/kinds/k.ts imports ../../retrieval/top-k.js (knowledge may import model)',
      'src/core/misc/ is no role of core: add it to CORE_MAY_IMPORT in __tests__/repo/layers.test.ts',
    ]);
  });
});
