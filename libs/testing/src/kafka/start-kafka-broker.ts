import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findFreePort } from '../anvil/find-free-port';
import { againWhilePortTaken, PORT_TRIES } from '../process/again-while-port-taken';
import { provisionKafkaBroker } from './kafka-broker-admin';
import {
  type KafkaBrokerInstall,
  kafkaBrokerLog4jConfig,
  KafkaBrokerUnavailableError,
  probeKafkaBroker,
} from './kafka-broker-install';
import { kafkaBrokerProperties, type KafkaBrokerProperties } from './kafka-broker-properties';

export interface KafkaBrokerOptions {
  /** Topics to create, with their partition counts, before this resolves. */
  topics?: Record<string, number>;
  /** `auto.create.topics.enable` (default true: an unknown topic gets one partition). */
  autoCreateTopics?: boolean;
  /** More server.properties, or overrides. */
  properties?: KafkaBrokerProperties;
  /** How long the JVM may take to serve (default 120 s: tens of seconds on a busy 2-core machine). */
  startTimeoutMs?: number;
  /**
   * A second listener that requires SASL/SCRAM (SASL_PLAINTEXT), with these users stored in the cluster's metadata at
   * format time: `saslBrokers` names it. The PLAINTEXT listener stays, for provisioning.
   */
  sasl?: { mechanism: 'SCRAM-SHA-256' | 'SCRAM-SHA-512'; users: Record<string, string> };
  /** Where the listeners' ports come from (default: a loopback port free a moment ago). */
  findPort?: () => Promise<number>;
}

export interface RunningKafkaBroker {
  brokers: string[];
  /** The SASL/SCRAM listener (with the `sasl` option), else []. */
  saslBrokers: string[];
  /** From spawning the JVM to serving with the topics created, in ms (storage formatting not included). */
  startMs: number;
  /** The broker's log4j log, kept after `stop()` when the broker failed or `keepLogs` was asked for. */
  logFile: string;
  /** The last lines of the broker's log, for a failure message. */
  logTail(lines?: number): string;
  /** SIGTERM, SIGKILL after 15 s; the data is removed, and the log too unless kept. */
  stop(options?: { keepLogs?: boolean }): Promise<void>;
}

const JVM_OPTIONS = [
  '-Xms128m',
  '-Xmx512m',
  '-XX:+UseSerialGC',
  '-XX:TieredStopAtLevel=1',
  '-Djava.awt.headless=true',
];

/**
 * A single-node KRaft Apache Kafka broker (broker and controller in one JVM) on free loopback ports, with its
 * storage in a fresh temporary directory: what CI and a laptop without a container runtime test against.
 * Throws KafkaBrokerUnavailableError where `probeKafkaBroker()` says no. Set KAFKA_BROKER_KEEP_LOGS=1 to keep
 * every run's log.
 */
export async function startKafkaBroker(options: KafkaBrokerOptions = {}): Promise<RunningKafkaBroker> {
  const install = probeKafkaBroker();
  if (!install.available) throw new KafkaBrokerUnavailableError(install.reason);
  // The broker exits at start-up when a port found free was taken before the JVM bound it: it starts again on fresh
  // ports, unless the caller chose the listeners itself.
  if (options.properties?.['listeners'] !== undefined) return startOnce(install, options);
  return againWhilePortTaken(
    () => startOnce(install, options),
    (err) => err instanceof PortTakenError,
    {
      onRetry: (n) =>
        process.stderr.write(
          `kafka broker: a listener's port was taken before it bound (${n}/${PORT_TRIES}), again\n`,
        ),
    },
  );
}

/** The broker exited at start-up because a listener's port was in use. */
class PortTakenError extends Error {}

async function startOnce(
  install: KafkaBrokerInstall & { available: true },
  options: KafkaBrokerOptions,
): Promise<RunningKafkaBroker> {
  const dir = mkdtempSync(join(tmpdir(), 'kafka-broker-'));
  const dataDir = join(dir, 'data');
  const logsDir = join(dir, 'logs');
  mkdirSync(logsDir);
  const logFile = join(logsDir, 'server.log');
  const logTail = (lines = 40) => tailOf(logFile, lines) || tailOf(join(logsDir, 'stdout.log'), lines);
  const findPort = options.findPort ?? findFreePort;
  const [port, controllerPort, saslPort] = await Promise.all([findPort(), findPort(), findPort()]);
  const config = join(dir, 'server.properties');
  writeFileSync(
    config,
    kafkaBrokerProperties(
      { port, controllerPort, dataDir, autoCreateTopics: options.autoCreateTopics ?? true },
      {
        ...(options.sasl ? saslListener(saslPort, port, controllerPort, options.sasl.mechanism) : {}),
        ...options.properties,
      },
    ),
  );
  const jvm = (main: string, args: string[]) => [
    ...JVM_OPTIONS,
    `-Dlog4j2.configurationFile=${kafkaBrokerLog4jConfig}`,
    `-Dkafka.logs.dir=${logsDir}`,
    '-cp',
    install.classpath,
    main,
    ...args,
  ];
  const clusterId = newClusterId();
  await formatStorage(
    install,
    jvm('kafka.tools.StorageTool', [
      'format',
      '-t',
      clusterId,
      '-c',
      config,
      ...Object.entries(options.sasl?.users ?? {}).flatMap(([name, password]) => [
        '--add-scram',
        `${options.sasl!.mechanism}=[name=${name},password=${password}]`,
      ]),
    ]),
    dir,
  );

  const startedAt = Date.now();
  const child = spawnBroker(install, jvm('kafka.Kafka', [config]), join(logsDir, 'stdout.log'));
  let stopping = false;
  let failure: string | null = null;
  const exited = new Promise<void>((done) =>
    child.once('exit', (code, signal) => {
      if (!stopping) failure = `exited on its own (${signal ?? `code ${code}`})`;
      done();
    }),
  );
  const stop = async ({ keepLogs = false } = {}) => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) {
      const killer = setTimeout(() => {
        failure ??= 'did not stop within 15 s of SIGTERM';
        child.kill('SIGKILL');
      }, 15_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(killer);
    }
    const keep = keepLogs || failure !== null || process.env['KAFKA_BROKER_KEEP_LOGS'] === '1';
    rmSync(keep ? dataDir : dir, { recursive: true, force: true });
    if (keep) {
      process.stderr.write(
        `kafka broker ${failure ?? 'stopped'}; its log is kept in ${logsDir}\n${logTail(20)}\n`,
      );
    }
  };
  const brokers = [`127.0.0.1:${port}`];
  try {
    await provisionKafkaBroker(brokers, options.topics ?? {}, {
      timeoutMs: options.startTimeoutMs ?? 120_000,
      alive: () => failure,
    });
  } catch (err) {
    failure ??= (err as Error).message;
    const portTaken = /BindException: Address already in use/.test(logTail(400));
    await stop();
    const message = `kafka broker did not start: ${failure}; its log is kept in ${logsDir}\n${logTail()}`;
    throw portTaken ? new PortTakenError(message) : new Error(message);
  }
  const saslBrokers = options.sasl ? [`127.0.0.1:${saslPort}`] : [];
  return { brokers, saslBrokers, startMs: Date.now() - startedAt, logFile, logTail, stop };
}

/** The listener settings of a SASL/SCRAM listener beside PLAINTEXT and the controller's. */
function saslListener(
  saslPort: number,
  port: number,
  controllerPort: number,
  mechanism: 'SCRAM-SHA-256' | 'SCRAM-SHA-512',
): KafkaBrokerProperties {
  return {
    listeners: `PLAINTEXT://127.0.0.1:${port},SASL://127.0.0.1:${saslPort},CONTROLLER://127.0.0.1:${controllerPort}`,
    'advertised.listeners': `PLAINTEXT://127.0.0.1:${port},SASL://127.0.0.1:${saslPort}`,
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,SASL:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT',
    'sasl.enabled.mechanisms': mechanism,
    [`listener.name.sasl.${mechanism.toLowerCase()}.sasl.jaas.config`]:
      'org.apache.kafka.common.security.scram.ScramLoginModule required;',
  };
}

async function formatStorage(install: KafkaBrokerInstall, args: string[], dir: string): Promise<void> {
  try {
    await promisify(execFile)(install.java, args, { timeout: 120_000 });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const e = err as Error & { stdout?: string; stderr?: string };
    throw new Error(`kafka storage format failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

/**
 * The JVM, its output to a file (no pipe to drain), and a watchdog shell that SIGKILLs it when this process dies
 * without stopping it (a jest worker killed on timeout): its stdin is a pipe from here, closed by any death.
 */
function spawnBroker(install: KafkaBrokerInstall, args: string[], outFile: string): ChildProcess {
  const out = openSync(outFile, 'a');
  const child = spawn(install.java, args, { stdio: ['ignore', out, out] });
  closeSync(out);
  const watchdog = spawn('/bin/sh', ['-c', `read _ignored; kill -9 ${child.pid} 2>/dev/null`], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  watchdog.on('error', () => undefined);
  child.once('exit', () => watchdog.kill('SIGKILL'));
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return child;
}

/** A Kafka Uuid in its base64url form; like Kafka's own, never one that starts with `-` (read as an option). */
function newClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

function tailOf(file: string, lines: number): string {
  if (!existsSync(file)) return '';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}
