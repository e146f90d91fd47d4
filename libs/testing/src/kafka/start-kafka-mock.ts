import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * A Kafka-protocol broker for tests without Docker: librdkafka's mock cluster (tools/kafka-mock/mock-cluster.c),
 * compiled once with gcc into node_modules/.cache/kafka-mock/. Needs `gcc` and `librdkafka-dev`.
 * The mock serves produce, fetch, consumer groups and offsets, but no admin API (CreateTopics, a controller):
 * pre-create topics here, leave kafkajs `admin` and `idempotent` alone.
 */

const workspaceRoot = resolve(__dirname, '../../../..');
const sourceFile = join(workspaceRoot, 'tools/kafka-mock/mock-cluster.c');
const cacheDir = join(workspaceRoot, 'node_modules/.cache/kafka-mock');

/** gcc or librdkafka (library or headers) is missing: the caller skips Kafka tests with this reason. */
export class KafkaMockUnavailableError extends Error {
  override readonly name = 'KafkaMockUnavailableError';
  constructor(readonly reason: string) {
    super(`kafka mock unavailable: ${reason}`);
  }
}

export interface RunningKafkaMock {
  brokers: string[];
  stop(): Promise<void>;
}

export interface KafkaMockOptions {
  /** Broker count (default 1). */
  brokers?: number;
  /** Topics to pre-create with their partition counts; unknown topics are auto-created with 4 partitions. */
  topics?: Record<string, number>;
  /** How long to wait for the bootstrap address (default 10 s). */
  startTimeoutMs?: number;
}

export type KafkaMockProbe = { available: true; binary: string } | { available: false; reason: string };

let probed: KafkaMockProbe | undefined;

/** Compiles the mock once (cached by source hash) and tells whether it can run here. Synchronous, for test skips. */
export function probeKafkaMock(): KafkaMockProbe {
  probed ??= compileMock();
  return probed;
}

function compileMock(): KafkaMockProbe {
  if (!existsSync(sourceFile)) return { available: false, reason: `${sourceFile} not found` };
  const hash = createHash('sha256').update(readFileSync(sourceFile)).digest('hex').slice(0, 12);
  const binary = join(cacheDir, `mock-cluster-${hash}`);
  if (existsSync(binary)) return { available: true, binary };
  mkdirSync(cacheDir, { recursive: true });
  const partial = `${binary}.${process.pid}.tmp`;
  try {
    execFileSync('gcc', ['-O1', '-o', partial, sourceFile, '-lrdkafka'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: Buffer };
    if (e.code === 'ENOENT') return { available: false, reason: 'gcc not found' };
    const stderr = (e.stderr?.toString() ?? '').split('\n');
    const firstError =
      stderr.find((l) => /fatal error|cannot find/.test(l)) ?? stderr.find((l) => /error/.test(l));
    return { available: false, reason: firstError?.trim() ?? e.message };
  }
  renameSync(partial, binary); // atomic: parallel jest workers may compile at the same time
  return { available: true, binary };
}

/** Starts a mock cluster on random loopback ports; `stop()` closes its stdin and waits for the exit. */
export async function startKafkaMock(options: KafkaMockOptions = {}): Promise<RunningKafkaMock> {
  const probe = probeKafkaMock();
  if (!probe.available) throw new KafkaMockUnavailableError(probe.reason);
  const topicArgs = Object.entries(options.topics ?? {}).map(
    ([topic, partitions]) => `${topic}:${partitions}`,
  );
  // stderr ignored: librdkafka delays its first stdout line by ~1 s when stderr is a pipe.
  const child = spawn(probe.binary, [String(options.brokers ?? 1), ...topicArgs], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const lines = createInterface({ input: child.stdout });
  const stop = async (): Promise<void> => {
    lines.close();
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin.end();
      const killer = setTimeout(() => child.kill('SIGKILL'), 2000);
      await exited;
      clearTimeout(killer);
    }
  };
  try {
    const bootstrap = await new Promise<string>((resolveLine, reject) => {
      const timer = setTimeout(
        () => reject(new Error('kafka mock printed no bootstrap address')),
        options.startTimeoutMs ?? 10_000,
      );
      lines.once('line', (line) => {
        clearTimeout(timer);
        resolveLine(line.trim());
      });
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`kafka mock exited with ${code}`));
      });
    });
    return { brokers: bootstrap.split(',').filter(Boolean), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
