/**
 * What the engine knows about ecosystems: the language of a file extension, the usual test tool of
 * a language, the files that name another tool, and how to run each kind of check with each tool
 * (tool names only, no project names). core/knowledge/ecosystem.ts reads them.
 */

/** Lower-case language name of each source file extension. */
export const EXTENSIONS: Record<string, string> = {
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

/** The usual test runner or package tool of each language. */
export const DEFAULT_TOOL: Record<string, string> = {
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

/** Files that name the tool a project uses, whatever its language; the first listed that a fix touched wins. */
export const TOOL_FILES: readonly (readonly [tool: string, files: readonly string[]])[] = [
  ['yarn', ['yarn.lock']],
  ['pnpm', ['pnpm-lock.yaml']],
  ['gradle', ['build.gradle', 'build.gradle.kts']],
  ['cargo', ['Cargo.toml', 'Cargo.lock']],
  ['go', ['go.mod']],
];

/** What kind of check the hint is about. */
export type HintKind = 'test' | 'race' | 'lint' | 'types' | 'build';

/** Where a tool is used, and how to run each kind of check with it. */
export const HINTS: Record<string, Partial<Record<HintKind, string>> & { test: string; where: string }> = {
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
