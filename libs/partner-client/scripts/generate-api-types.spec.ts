import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const repoRoot = join(__dirname, '..', '..', '..');
const OUTPUT_PATH = join(__dirname, '..', 'src', 'generated', 'api-types.ts');
const openapi = JSON.parse(readFileSync(join(repoRoot, 'docs', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, unknown> };
};

describe('libs/partner-client/src/generated/api-types.ts', () => {
  it('is exactly what docs/openapi.json generates now (run `npm run partner-client:types` after a contract change)', async () => {
    // The generator in its own process, as `npm run partner-client:types` runs it, printing instead of writing.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(repoRoot, 'tools', 'run-ts.js'), join(__dirname, 'generate-api-types.ts'), '--stdout'],
      { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 },
    );
    expect(readFileSync(OUTPUT_PATH, 'utf8')).toBe(stdout);
  }, 20_000);

  it('has one exported type per schema of the contract, and the Operations map names every operationId', () => {
    const text = readFileSync(OUTPUT_PATH, 'utf8');
    const exported = [...text.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
    expect(exported).toEqual([...Object.keys(openapi.components.schemas), 'Operations', 'OperationId']);
    const operationIds = Object.values(openapi.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => (typeof op['operationId'] === 'string' ? [op['operationId']] : [])),
    );
    const block = text.slice(text.indexOf('export interface Operations'));
    expect([...block.matchAll(/^ {2}(\w+): \{$/gm)].map((m) => m[1])).toEqual(operationIds);
  });

  it('lists in errorCodes exactly the stable codes of sdks/vectors/errors.json', async () => {
    const { errorCodes } = await import('../src/generated/api-types');
    const vectors = JSON.parse(readFileSync(join(repoRoot, 'sdks', 'vectors', 'errors.json'), 'utf8')) as {
      cases: { code: string }[];
    };
    expect([...errorCodes].sort()).toEqual(vectors.cases.map((c) => c.code).sort());
  });
});
