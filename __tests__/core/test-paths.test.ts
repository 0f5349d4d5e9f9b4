import { describe, expect, it } from 'vitest';
import { isRustTestMarkerLine, isTestPath } from '../../src/core/test-paths.js';

describe('isTestPath (the eval set tests_changed rule)', () => {
  it.each([
    'test/redirects.js',
    'packages/core/tests/unit/a.rs',
    'src/__tests__/x.tsx',
    'spec/models/user_spec.rb',
    'tests/test_parser.py',
    'click/test_utils.py',
    'flag_test.go',
    'src/date.test.ts',
    'lib/app.spec.js',
    'test.js',
    'index.test-d.ts',
    'types.tst.ts',
  ])('%s is a test file', (path) => expect(isTestPath(path)).toBe(true));

  it.each([
    'src/index.ts',
    'test/fixtures/data.json',
    'tests/config.yml',
    'testing/helper.ts',
    'src/contest.ts',
    'docs/test.md',
  ])('%s is not', (path) => expect(isTestPath(path)).toBe(false));

  it('spots added or removed Rust test code', () => {
    expect(isRustTestMarkerLine('+    #[test]')).toBe(true);
    expect(isRustTestMarkerLine('-#[cfg(test)]')).toBe(true);
    expect(isRustTestMarkerLine('+#[tokio::test]')).toBe(true);
    expect(isRustTestMarkerLine(' #[test]')).toBe(false);
    expect(isRustTestMarkerLine('+++ b/src/lib.rs')).toBe(false);
  });
});
