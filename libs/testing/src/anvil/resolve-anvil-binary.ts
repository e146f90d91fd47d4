import { existsSync } from 'node:fs';
import path from 'node:path';

export class AnvilNotFoundError extends Error {
  override readonly name = 'AnvilNotFoundError' as const;
}

// @foundry-rs/anvil ships one optional package per platform, named after Rust-style os/arch pairs.
const ARCH: Partial<Record<string, string>> = { x64: 'amd64', arm64: 'arm64' };

/**
 * The anvil executable: `ANVIL_BIN` when set, else the binary of the installed `@foundry-rs/anvil-<os>-<arch>`
 * package, else `anvil` on PATH.
 */
export function resolveAnvilBinary(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ANVIL_BIN) {
    if (existsSync(env.ANVIL_BIN)) return env.ANVIL_BIN;
    throw new AnvilNotFoundError(`ANVIL_BIN=${env.ANVIL_BIN} does not exist`);
  }
  const pkg = `@foundry-rs/anvil-${process.platform}-${ARCH[process.arch] ?? process.arch}`;
  try {
    const bin = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), 'bin', 'anvil');
    if (existsSync(bin)) return bin;
  } catch {
    // not installed for this platform: try PATH
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const bin = path.join(dir, process.platform === 'win32' ? 'anvil.exe' : 'anvil');
    if (existsSync(bin)) return bin;
  }
  throw new AnvilNotFoundError(
    `anvil not found: install ${pkg} (npm install, it is an optional dependency), put anvil on PATH ` +
      `(https://getfoundry.sh) or set ANVIL_BIN`,
  );
}
