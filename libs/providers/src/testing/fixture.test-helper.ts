import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A recorded answer, typed loosely on purpose: cases reach into it to break one field at a time, and the
 * adapter under test is what checks the shape.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Fixture = Record<string, any>;

/** A recorded provider answer from `<dir>/fixtures/<name>`, parsed fresh so a case may edit it. */
export function fixture(dir: string, name: string): Fixture {
  return JSON.parse(readFileSync(join(dir, 'fixtures', name), 'utf8')) as Fixture;
}
