import { spawnSync } from 'node:child_process';

export type ContainerRuntimeProbe = { available: true } | { available: false; reason: string };

/**
 * Asks testcontainers for a container runtime, synchronously, so a spec can choose `describe` or
 * `describe.skip` while jest collects tests (describe callbacks cannot await). It runs in a child process
 * because getContainerRuntimeClient() is async; without a runtime it answers in well under a second.
 */
export function probeContainerRuntime(): ContainerRuntimeProbe {
  const script = `require(${JSON.stringify(require.resolve('testcontainers'))}).getContainerRuntimeClient().then(
    () => process.exit(0),
    (error) => { process.stdout.write(String(error && error.message ? error.message : error)); process.exit(1); })`;
  const probe = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 });
  if (probe.status === 0) return { available: true };
  const reason = probe.error?.message ?? (probe.stdout.trim() || `probe exited with ${String(probe.status)}`);
  return { available: false, reason };
}
