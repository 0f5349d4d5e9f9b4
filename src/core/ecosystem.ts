/**
 * The ecosystem of a fix (language and test tool) from its file names and the repository's
 * language. Used for `lang:` and `tool:` tags and a generic "how to run it" qualifier. Pure.
 */

export interface Ecosystem {
  /** lower-case language name, e.g. "typescript" */
  language?: string;
  /** the usual test runner or package tool, e.g. "npm", "pytest", "go", "cargo" */
  tool?: string;
}

const EXTENSIONS: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  go: 'go',
  rs: 'rust',
  rb: 'ruby',
  java: 'java',
  kt: 'kotlin',
  cs: 'csharp',
  php: 'php',
  swift: 'swift',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  hpp: 'cpp',
};

const DEFAULT_TOOL: Record<string, string> = {
  typescript: 'npm',
  javascript: 'npm',
  python: 'pytest',
  go: 'go',
  rust: 'cargo',
  ruby: 'rspec',
  java: 'maven',
  kotlin: 'gradle',
  csharp: 'dotnet',
  php: 'phpunit',
  swift: 'swift',
};

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
  let tool = language === undefined ? undefined : DEFAULT_TOOL[language];
  if (names.has('yarn.lock')) tool = 'yarn';
  else if (names.has('pnpm-lock.yaml')) tool = 'pnpm';
  else if (names.has('build.gradle') || names.has('build.gradle.kts')) tool = 'gradle';
  else if (names.has('Cargo.toml') || names.has('Cargo.lock')) tool = 'cargo';
  else if (names.has('go.mod')) tool = 'go';
  return { ...(language ? { language } : {}), ...(tool ? { tool } : {}) };
}

/** What kind of check the hint is about. */
export type HintKind = 'test' | 'race' | 'lint' | 'types' | 'build';

const HINTS: Record<string, Partial<Record<HintKind, string>> & { test: string; where: string }> = {
  npm: {
    where: 'a Node.js package',
    test: '`npm test` on every supported Node.js version',
    lint: 'ESLint and Prettier',
    types: '`tsc --noEmit`',
    build: '`npm pack` and an install of the packed tarball',
  },
  yarn: {
    where: 'a Node.js package',
    test: '`yarn test` on every supported Node.js version',
    lint: 'ESLint and Prettier',
    types: '`tsc --noEmit`',
    build: '`yarn pack` and an install of the packed tarball',
  },
  pnpm: {
    where: 'a Node.js package',
    test: '`pnpm test` on every supported Node.js version',
    lint: 'ESLint and Prettier',
    types: '`tsc --noEmit`',
    build: '`pnpm pack` and an install of the packed tarball',
  },
  pytest: {
    where: 'a Python project',
    test: 'pytest across the supported Python versions (tox or nox)',
    lint: 'ruff or flake8',
    types: 'mypy or pyright',
    build: '`python -m build` and an install of the wheel',
  },
  go: {
    where: 'a Go module',
    test: '`go test ./...`',
    race: '`go test -race ./...`',
    lint: '`go vet ./...` and gofmt',
    types: '`go vet ./...`',
    build: '`go build ./...` for every target OS',
  },
  cargo: {
    where: 'a Rust crate',
    test: '`cargo test` on every target you ship',
    lint: '`cargo clippy` and `cargo fmt --check`',
    types: '`cargo check`',
    build: '`cargo build` for every target you ship',
  },
  rspec: { where: 'a Ruby project', test: '`bundle exec rspec`', lint: 'RuboCop', build: '`gem build`' },
  maven: { where: 'a Java project', test: '`mvn verify`' },
  gradle: { where: 'a JVM project', test: '`gradle check`' },
  dotnet: { where: 'a .NET project', test: '`dotnet test`' },
  phpunit: { where: 'a PHP project', test: 'PHPUnit' },
  swift: { where: 'a Swift package', test: '`swift test`' },
};

/** A generic sentence on how to run the check in this ecosystem (tool names only, no project names). */
export function runHint(ecosystem: Ecosystem, kind: HintKind = 'test'): string | undefined {
  const hint = ecosystem.tool === undefined ? undefined : HINTS[ecosystem.tool];
  if (!hint) return undefined;
  return `In ${hint.where}, run it with ${hint[kind] ?? hint.test}.`;
}
