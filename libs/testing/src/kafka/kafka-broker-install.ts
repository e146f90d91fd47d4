import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../process/child-process';

/**
 * Apache Kafka's broker for tests, as jars from Maven Central: `tools/kafka-broker/pom.xml` resolved once with
 * `mvn dependency:copy-dependencies` into `node_modules/.cache/kafka-broker/kafka-<version>/libs` (or
 * `$KAFKA_BROKER_CACHE`), reused while present; no Maven run, no download, when cached. Needs Java 17+ to run
 * (`$JAVA_HOME/bin/java` or `java` on PATH) and Maven to resolve.
 */
export const KAFKA_BROKER_VERSION = '4.4.0';

const pomFile = join(repoRoot, 'tools/kafka-broker/pom.xml');
export const kafkaBrokerLog4jConfig = join(repoRoot, 'tools/kafka-broker/log4j2.properties');

export interface KafkaBrokerInstall {
  version: string;
  java: string;
  /** The broker's classpath: every jar of the version. */
  classpath: string;
  /** Resolved by this call (false: found in the cache). */
  resolved: boolean;
}

export type KafkaBrokerProbe =
  ({ available: true } & KafkaBrokerInstall) | { available: false; reason: string };

/** Java, Maven or the jars are missing: the caller skips its Kafka tests with this reason. */
export class KafkaBrokerUnavailableError extends Error {
  override readonly name = 'KafkaBrokerUnavailableError';
  constructor(readonly reason: string) {
    super(`kafka broker unavailable: ${reason}`);
  }
}

let probed: KafkaBrokerProbe | undefined;

/**
 * Whether a broker can run here, resolving its jars first if they are not cached (a cold resolution takes 10-20 s).
 * Synchronous and memoized per process, for test skips. A failed resolution is remembered for an hour, so the
 * Kafka spec files of one run do not each ask Maven again. `KAFKA_BROKER_VERSION` picks another 4.x release.
 */
export function probeKafkaBroker(env: NodeJS.ProcessEnv = process.env): KafkaBrokerProbe {
  probed ??= installKafkaBroker(env, { retryFailed: false });
  return probed;
}

/** Finds Java and the cached jars, or resolves them with Maven: what `npm run kafka:resolve` and the probe run. */
export function installKafkaBroker(
  env: NodeJS.ProcessEnv = process.env,
  { retryFailed = true } = {},
): KafkaBrokerProbe {
  const version = env['KAFKA_BROKER_VERSION'] || KAFKA_BROKER_VERSION;
  const java = findJava(env);
  if ('reason' in java) return { available: false, reason: java.reason };
  const cacheRoot = env['KAFKA_BROKER_CACHE'] || join(repoRoot, 'node_modules/.cache/kafka-broker');
  const home = join(cacheRoot, `kafka-${version}`);
  const libs = join(home, 'libs');
  const install = { version, java: java.path, classpath: join(libs, '*') };
  if (existsSync(join(libs, `kafka_2.13-${version}.jar`))) {
    return { available: true, ...install, resolved: false };
  }
  const failedFile = `${home}.failed`;
  if (!retryFailed && existsSync(failedFile) && Date.now() - statSync(failedFile).mtimeMs < 3_600_000) {
    return { available: false, reason: readFileSync(failedFile, 'utf8') };
  }
  const failure = resolveJars(version, cacheRoot, home, env);
  if (failure) {
    writeFileSync(failedFile, failure);
    return { available: false, reason: failure };
  }
  rmSync(failedFile, { force: true });
  return { available: true, ...install, resolved: true };
}

/** Java 17+ (Kafka 4 runs on nothing older), or why not. */
function findJava(env: NodeJS.ProcessEnv): { path: string } | { reason: string } {
  const java = env['JAVA_HOME'] ? join(env['JAVA_HOME'], 'bin', 'java') : 'java';
  const run = spawnSync(java, ['-version'], { encoding: 'utf8', timeout: 30_000 });
  if (run.error && (run.error as NodeJS.ErrnoException).code === 'ENOENT') {
    return { reason: `${java} not found (Kafka 4 needs Java 17+)` };
  }
  if (run.error || run.status !== 0) {
    return { reason: `${java} -version failed: ${firstLine(run.stderr || String(run.error))}` };
  }
  // `openjdk version "17.0.15" ...`; Java 8 and older say "1.8.0_402".
  const [, first, second] = /version "(\d+)(?:\.(\d+))?/.exec(run.stderr) ?? [];
  const major = first === '1' ? Number(second) : Number(first);
  if (!(major >= 17))
    return { reason: `${java} is Java ${major || 'of unknown version'}; Kafka 4 needs 17+` };
  return { path: java };
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ?? text
  );
}

/** Runs Maven into a private directory, then renames it into place: parallel jest workers may race here. */
function resolveJars(
  version: string,
  cacheRoot: string,
  home: string,
  env: NodeJS.ProcessEnv,
): string | null {
  mkdirSync(cacheRoot, { recursive: true });
  const partial = `${home}.${process.pid}.tmp`;
  rmSync(partial, { recursive: true, force: true });
  try {
    execFileSync(
      'mvn',
      [
        '-q',
        '-B',
        '-Dstyle.color=never',
        '-f',
        pomFile,
        `-Dkafka.version=${version}`,
        'dependency:copy-dependencies',
        `-DoutputDirectory=${join(partial, 'libs')}`,
      ],
      { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 },
    );
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    const e = err as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
    if (e.code === 'ENOENT')
      return `mvn not found: cannot resolve Apache Kafka ${version} from Maven Central`;
    // Maven colours some lines even in batch mode.
    const escape = String.fromCharCode(27);
    const output = `${e.stdout ?? ''}\n${e.stderr ?? ''}`
      .split(escape)
      .join('')
      .replace(/\[[0-9;]*m/g, '');
    const lines = output.split('\n');
    const error = lines.find((l) => /^\[ERROR\]\s*\S/.test(l)) ?? firstLine(e.message);
    const why = error
      .replace(
        /^\[ERROR\]\s*(Failed to execute goal[^:]*: )?(Could not resolve dependencies for project \S+: )?/,
        '',
      )
      .split('. ')[0]
      .slice(0, 200);
    return `Apache Kafka ${version} not resolved by Maven: ${why}`;
  }
  try {
    renameSync(partial, home);
  } catch {
    // Another worker renamed its copy first: use that one.
    rmSync(partial, { recursive: true, force: true });
  }
  return null;
}
