import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SANDBOX_CONFIRMATIONS, type SandboxChains } from '../chains/start-sandbox-chains';
import { toJsonText } from '../http/sandbox-http';
import { type SandboxManifest } from './sandbox-manifest';

export function manifestFilePaths(dir: string): { manifest: string; chains: string } {
  return { manifest: join(dir, 'manifest.json'), chains: join(dir, 'chains.json') };
}

/** Writes `manifest.json` and the service's CHAINS_FILE (`chains.json`) into `dir`, creating it. */
export async function writeManifestFiles(
  dir: string,
  manifest: SandboxManifest,
  chains: SandboxChains,
): Promise<void> {
  const paths = manifestFilePaths(dir);
  await mkdir(dir, { recursive: true });
  const pretty = (value: unknown) => `${JSON.stringify(JSON.parse(toJsonText(value)), null, 2)}\n`;
  const entries = chains.chains.map((c) => ({ ...c, confirmations: SANDBOX_CONFIRMATIONS }));
  await writeFile(paths.chains, pretty({ chains: entries }));
  await writeFile(paths.manifest, pretty(manifest));
}
