// `npm ci` warns EBADENGINE when an installed package wants a newer Node than the README promises.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; dev?: boolean }>;
};

describe('the Node versions the project promises', () => {
  /** the locked packages (optionally only those installed without dev dependencies) that would not run on `node` */
  function wantingNewer(node: string, { production }: { production: boolean }): string[] {
    return Object.entries(lock.packages).flatMap(([path, entry]) => {
      const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!path || !wanted || (production && entry.dev) || semver.satisfies(node, wanted)) return [];
      return [`${path.replace(/^.*node_modules\//, '')} wants node ${wanted}`];
    });
  }

  it('what the App, CLI and Action install runs on the oldest Node in "engines"', () => {
    const oldest = semver.minVersion(manifest.engines.node)?.version ?? '';
    expect(semver.gte(oldest, '20.18.0')).toBe(true);
    expect(wantingNewer(oldest, { production: true })).toEqual([]);
  });

  it('npm ci on the Node running the tests installs no package that wants a newer one (no EBADENGINE)', () => {
    expect(wantingNewer(process.versions.node, { production: false })).toEqual([]);
  });
});
