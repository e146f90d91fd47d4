import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSigningStringV2 } from '@svc/auth';
import {
  API_PREFIX,
  buildOpenApiDocument,
  ERROR_CODES,
  type JsonSchema,
  type OpenApiDocument,
  SIGNING_STRING_TEMPLATE_V2,
  validateQuoteRequest,
} from '@svc/contract';
// ROUTES is not (yet) exported from @svc/gateway; read straight from the one place the routes are declared.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ROUTES } from '../../libs/gateway/src/pipeline/external-route';
import { API_REFERENCE_HTML, CAPTURED_PATH, OPENAPI_JSON, REPO_ROOT } from './paths';
import { strictOpenApiValidator } from '@svc/testing';

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
const doc = buildOpenApiDocument();

describe('docs/openapi.json and docs/api-reference.html', () => {
  it('are what `npm run openapi` generates from libs/contract', () => {
    // A child process: Prettier 3 loads its plugins with dynamic import(), which jest's VM does not allow.
    const result = spawnSync(process.execPath, ['tools/run-ts.js', 'tools/openapi/generate.ts', '--check'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    expect(result.stdout).toContain(`${OPENAPI_JSON}: up to date`);
    expect(result.stdout).toContain(`${API_REFERENCE_HTML}: up to date`);
  });

  it('pass the OpenAPI linter (Redocly, recommended rules) with no error or warning, offline', () => {
    const result = spawnSync(
      process.execPath,
      [
        join(REPO_ROOT, 'node_modules/@redocly/cli/bin/cli.js'),
        'lint',
        '--config',
        'tools/openapi/redocly.yaml',
        '--format',
        'json',
        OPENAPI_JSON,
      ],
      {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        timeout: 60_000,
        // No telemetry and no update check: the linter makes no network request.
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(result.status).toBe(0);
  });
});

describe('the document against the gateway routes', () => {
  const routes = Object.values(ROUTES);
  const openApiPath = (path: string) => `${API_PREFIX}${path.replace(/:([A-Za-z]+)/g, '{$1}')}`;
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );

  it.each(routes.map((route) => [route.name, route] as const))(
    'describes route %s at its method and path, with its path parameters',
    (name, route) => {
      const op = doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
      expect(op?.operationId).toBe(name);
      const pathParams = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]);
      const declared = (op.parameters as JsonSchema[])
        .map((p) => doc.components.parameters[String(p.$ref).split('/').pop()!] ?? p)
        .filter((p) => p.in === 'path')
        .map((p) => p.name);
      expect(declared).toEqual(pathParams);
      const isPost = route.method === 'POST';
      expect([name, 'requestBody' in op]).toEqual([name, isPost]);
      const params = (op.parameters as JsonSchema[]).map((p) => p.$ref);
      expect([name, params.includes('#/components/parameters/IdempotencyKey')]).toEqual([name, isPost]);
    },
  );

  it('describes no operation the gateway does not route', () => {
    expect(operations.map(({ op }) => op.operationId).sort()).toEqual(
      routes.map((route) => route.name).sort(),
    );
  });

  it('states the v2 signing string libs/auth signs', () => {
    const placeholders = {
      partnerId: '<partner_id>',
      timestamp: '<epoch_ms>',
      nonce: '<nonce>',
      method: '<UPPERCASE_HTTP_METHOD>',
      path: '<normalized_absolute_pathname>',
      idempotencyKey: '<key>',
      bodySha256: '<lowercase hex SHA-256 of the exact raw request bytes>',
    };
    expect(SIGNING_STRING_TEMPLATE_V2).toBe(buildSigningStringV2(placeholders));
    expect(String(doc.components.securitySchemes.Signature.description)).toContain(
      SIGNING_STRING_TEMPLATE_V2,
    );
  });
});

describe('real requests and responses against the committed document', () => {
  const committed = JSON.parse(read(OPENAPI_JSON)) as OpenApiDocument;
  const errorsOf = strictOpenApiValidator(committed);
  const captured = JSON.parse(read(CAPTURED_PATH)) as Record<string, unknown> & {
    statusResponses: unknown[];
    webhooks: unknown[];
    errorResponses: { status: number; body: { code: keyof typeof ERROR_CODES } }[];
  };
  const policy = { maxFeeBps: 300, callbackUrl: 'http://127.0.0.1:4000/webhooks' };

  it('validates examples/quote-request.json, which the contract accepts', () => {
    const body = JSON.parse(read('examples/quote-request.json')) as unknown;
    expect(validateQuoteRequest(body, policy).ok).toBe(true);
    expect(errorsOf('QuoteRequest', body)).toEqual([]);
  });

  it.each([
    ['quoteRequest', 'QuoteRequest'],
    ['quoteResponse', 'QuoteResponse'],
    ['prepareResponse', 'PrepareResponse'],
    ['submittedRequest', 'SubmittedRequest'],
    ['submittedResponse', 'AttemptSnapshot'],
    ['ping', 'PingResponse'],
  ])('validates the captured %s as %s', (key, schema) => {
    expect(errorsOf(schema, captured[key])).toEqual([]);
  });

  it('validates every captured status snapshot and webhook body', () => {
    expect(captured.statusResponses.length).toBeGreaterThan(0);
    expect(captured.webhooks.length).toBeGreaterThan(0);
    expect([
      ...captured.statusResponses.flatMap((body) => errorsOf('AttemptSnapshot', body)),
      ...captured.webhooks.flatMap((body) => errorsOf('WebhookEvent', body)),
    ]).toEqual([]);
  });

  it('validates every captured error body, with the status its code has', () => {
    for (const { status, body } of captured.errorResponses) {
      expect(errorsOf('ErrorResponse', body)).toEqual([]);
      expect([body.code, status]).toEqual([body.code, ERROR_CODES[body.code].status]);
    }
  });
});

describe('the reference page', () => {
  const html = read(API_REFERENCE_HTML);

  it('loads nothing: no script, stylesheet, font, image or frame from anywhere', () => {
    expect(html).not.toMatch(/<script|<link|<img|<iframe|<object|<embed|@import|url\(|\ssrc=|srcset=/i);
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]);
    expect(hrefs.filter((href) => !href.startsWith('#') && href !== 'openapi.json')).toEqual([]);
  });

  it('has a section for every operation, webhook and schema, and lists every error code', () => {
    const anchors = [
      ...Object.values(doc.paths).flatMap((methods) =>
        Object.values(methods).map((op) => `op-${String(op.operationId)}`),
      ),
      ...Object.keys(doc.webhooks).map((name) => `webhook-${name}`),
      ...Object.keys(doc.components.schemas).map((name) => `schema-${name}`),
    ];
    expect(anchors.filter((id) => !html.includes(`id="${id}"`))).toEqual([]);
    expect(Object.keys(ERROR_CODES).filter((code) => !html.includes(`<code>${code}</code>`))).toEqual([]);
  });
});
