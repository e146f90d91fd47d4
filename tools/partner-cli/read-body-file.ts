import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { UsageError } from './cli-errors';

export interface BodyFile {
  body: object;
  /** SHA-256 of the file's bytes: names the operation, so the same file re-run is the same operation. */
  sha256: string;
}

export function readBodyFile(path: string): BodyFile {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new UsageError(`${path} is not JSON: ${(error as Error).message}`);
  }
  if (typeof body !== 'object' || body === null) throw new UsageError(`${path} must hold a JSON object`);
  return { body, sha256: createHash('sha256').update(bytes).digest('hex') };
}
