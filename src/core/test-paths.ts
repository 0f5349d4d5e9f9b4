/**
 * Which changed paths are test code. One rule for every source (git, GitHub, fixes files), the
 * same as `tests_changed` in the eval set: a path under test/, tests/, __tests__/ or spec/, or a
 * file named test_*.py, *_test.go, *.test.*, *.spec.*, test.js/test.ts, *.test-d.ts, *.tst.ts.
 * Data and config files (.json, .yml, …) never count, wherever they live.
 */

const TEST_DIRS = new Set(['test', 'tests', '__tests__', 'spec']);
const NOT_CODE = /\.(json|jsonc|json5|ya?ml|toml|ini|cfg|lock|md|txt|snap|csv|xml|html?|svg|png|jpe?g|gif)$/i;
const TEST_NAME = [
  /^test_.+\.py$/i,
  /_test\.go$/i,
  /\.test\.[^.]+$/i,
  /\.spec\.[^.]+$/i,
  /^test\.(js|ts)$/i,
  /\.test-d\.ts$/i,
  /\.tst\.ts$/i,
];

/** True when the path (relative, `/`-separated) is a test file. */
export function isTestPath(path: string): boolean {
  const parts = path.split('/');
  const name = parts[parts.length - 1] ?? '';
  if (NOT_CODE.test(name)) return false;
  if (parts.slice(0, -1).some((dir) => TEST_DIRS.has(dir))) return true;
  return TEST_NAME.some((pattern) => pattern.test(name));
}

/** Added or removed Rust test code (`#[test]`, `#[tokio::test]`, `#[cfg(test)]`) in a patch line. */
export function isRustTestMarkerLine(line: string): boolean {
  return /^[+-](?![+-])\s*#\[(?:(?:\w+::)?test|cfg\(test\))\]/.test(line);
}
