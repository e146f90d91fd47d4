import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEVELOPMENT_ACCOUNTS } from '@svc/composition';

const root = join(__dirname, '..', '..');
const k8s = join(root, 'docker', 'k8s');
const compose = join(root, 'docker', 'compose.yaml');

function validateK8s(dir: string) {
  return spawnSync(process.execPath, [join(__dirname, 'validate-k8s.mjs'), dir], {
    cwd: root,
    encoding: 'utf8',
  });
}

describe('Kubernetes manifests (docker/k8s), against the schemas of kubernetes-models', () => {
  it('are valid', () => {
    const run = validateK8s(k8s);
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toMatch(/[1-9][0-9]* documents valid, 0 problems/);
  });

  it('a wrong type or a missing required field is caught (the check can fail)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'k8s-'));
    try {
      cpSync(k8s, dir, { recursive: true });
      const gateway = join(dir, 'gateway.yaml');
      writeFileSync(
        gateway,
        readFileSync(gateway, 'utf8').replace(/containerPort: \d+/, 'containerPort: http-port'),
      );
      const run = validateK8s(dir);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/gateway\.yaml#\d+ \(Deployment [^)]*\): .*containerPort must be integer/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('carry no development values: no public development account, no inline partner secret', () => {
    const text = readdirSync(k8s)
      .map((f) => readFileSync(join(k8s, f), 'utf8'))
      .join('\n')
      .toLowerCase();
    expect(DEVELOPMENT_ACCOUNTS.filter((a) => text.includes(a.toLowerCase()))).toEqual([]);
    expect(text).not.toMatch(/"secret"\s*:/);
  });
});

// compose-check is a small Go program on compose-go, the library Docker Compose loads files with; it needs Go.
const go = spawnSync('go', ['version'], { encoding: 'utf8' });
const goMissing = go.status !== 0 ? `go is not installed (${go.error?.message ?? go.stderr.trim()})` : null;
if (goMissing) process.stdout.write(`compose file check: skipped, ${goMissing}\n`);

// Skipped where Go is not installed (the reason is printed above); CI's machine has it.
(goMissing ? describe.skip : describe)('the compose file (docker/compose.yaml), loaded by compose-go', () => {
  let bin: string;
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'compose-check-'));
    bin = join(dir, 'compose-check');
    const build = spawnSync('go', ['build', '-o', bin, '.'], {
      cwd: join(__dirname, 'compose-check'),
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(`go build failed:\n${build.stderr}`);
  }, 240_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const check = (env: Record<string, string>) =>
    spawnSync(bin, [compose], {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
    });

  it('is valid, every profile included, once its required variables are given', () => {
    const run = check({
      SERVICE_FEE_RECIPIENT: '0x1111111111111111111111111111111111111111',
      PARTNERS_FILE_HOST: '../config/partners.dev.json',
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toMatch(/valid \(\d+ services\)/);
  });

  it('stops at once, naming them, without the fee recipient and the partners file: no working dev default', () => {
    const run = check({});
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/SERVICE_FEE_RECIPIENT/);
    expect(run.stderr).toMatch(/PARTNERS_FILE_HOST/);
  });
});
