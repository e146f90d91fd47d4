import { STATUS_CODES } from 'node:http';
import { getMetadataStorage } from 'class-validator';
import { CHAIN_STATUSES } from '../attempt/chain-status';
import { LEG_ERROR_CODES, LEG_STATUSES } from '../attempt/leg-status';
import { AMOUNT_BASES } from '../enums/amount-basis';
import { ATTEMPT_STATUSES } from '../enums/attempt-status';
import { COVERAGE_MODES } from '../enums/coverage-mode';
import { KNOWN_FAILED_SOURCE_REASON_CODES } from '../enums/failed-source-reason-code';
import { PROVIDER_NAMES } from '../enums/provider-name';
import { QUOTE_STATUSES } from '../enums/quote-status';
import { SUBMIT_METHODS } from '../enums/submit-method';
import { WEBHOOK_EVENT_KINDS } from '../enums/webhook-event-kind';
import { ERROR_CODES, type ErrorCode } from '../errors/error-codes';
import { API_PREFIX } from '../headers';
import { PrepareRequestDto } from '../prepare/prepare-request.dto';
import { validatePrepareRequest } from '../prepare/validate-prepare-request';
import { WalletContextDto } from '../prepare/wallet-context.dto';
import { POLICY } from '../quote/quote-body.fixture';
import { QuoteRequestDto } from '../quote/quote-request.dto';
import { SourceInputDto } from '../quote/source-input.dto';
import { TargetInputDto } from '../quote/target-input.dto';
import { TargetTokenInputDto } from '../quote/target-token-input.dto';
import { validateQuoteRequest } from '../quote/validate-quote-request';
import { ChainResultDto } from '../submitted/chain-result.dto';
import { SubmittedRequestDto } from '../submitted/submitted-request.dto';
import { validateSubmittedRequest } from '../submitted/validate-submitted-request';
import { validateAttemptSearchRequest } from '../lookups/validate-attempt-search-request';
import { WalletAuthorizationInputDto } from '../submitted/wallet-authorization-input.dto';
import { codeOfContext } from '../validation/coded';
import { errorsOf } from '../validation/validation-result.fixture';
import { REQUEST_EXAMPLES } from './examples';
import { type JsonSchema } from './json-schema';
import { describeErrors, openApiValidator } from './openapi-ajv.test-helper';
import { buildOpenApiDocument, REASON_PHRASES } from './openapi-document';
import { ERROR_CODE_OPERATIONS, OPERATION_NAMES, OPERATIONS, type OperationName } from './operations';

const doc = buildOpenApiDocument();
const open = openApiValidator(doc, { closed: false });
const closed = openApiValidator(doc, { closed: true });

/** Every operation of the document, paths and webhooks, with a JSON-pointer-ish name. */
function operations(): { at: string; op: JsonSchema }[] {
  const of = (root: string, entries: Record<string, Record<string, JsonSchema>>) =>
    Object.entries(entries).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ at: `${root} ${path} ${method}`, op })),
    );
  return [...of('paths', doc.paths), ...of('webhooks', doc.webhooks)];
}

function resolveResponse(response: JsonSchema): JsonSchema {
  const target = response.$ref;
  return typeof target === 'string' ? doc.components.responses[target.split('/').pop()!] : response;
}

/** Every example in the document with the schema it illustrates. */
function examples(): { at: string; schema: JsonSchema; value: unknown }[] {
  const found: { at: string; schema: JsonSchema; value: unknown }[] = [];
  const collect = (at: string, media: JsonSchema | undefined) => {
    if (!media) return;
    const schema = media.schema as JsonSchema;
    if (media.example !== undefined) found.push({ at, schema, value: media.example });
    for (const [key, example] of Object.entries((media.examples as Record<string, JsonSchema>) ?? {})) {
      found.push({ at: `${at} ${key}`, schema, value: example.value });
    }
  };
  for (const { at, op } of operations()) {
    const body = op.requestBody as JsonSchema | undefined;
    collect(`${at} request`, (body?.content as Record<string, JsonSchema> | undefined)?.['application/json']);
    for (const [status, response] of Object.entries(op.responses as Record<string, JsonSchema>)) {
      const content = resolveResponse(response).content as Record<string, JsonSchema> | undefined;
      collect(`${at} ${status}`, content?.['application/json']);
    }
  }
  return found;
}

/** The error codes an operation documents, by HTTP status. */
function documentedCodes(name: OperationName): Map<string, string[]> {
  const spec = OPERATIONS[name];
  const op = doc.paths[`${API_PREFIX}${spec.path}`][spec.method];
  const codes = new Map<string, string[]>();
  for (const [status, response] of Object.entries(op.responses as Record<string, JsonSchema>)) {
    if (status === '200') continue;
    const media = (resolveResponse(response).content as Record<string, JsonSchema>)['application/json'];
    const [, restriction] = (media.schema as { allOf: JsonSchema[] }).allOf;
    codes.set(status, (restriction.properties as { code: { enum: string[] } }).code.enum);
  }
  return codes;
}

describe('the OpenAPI document built from libs/contract', () => {
  it('is OpenAPI 3.1 and every component schema compiles as JSON Schema 2020-12', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const name of Object.keys(doc.components.schemas)) {
      expect(() => open.errorsOf(name, null)).not.toThrow();
    }
  });

  it('lists every error code of the registry with its HTTP status', () => {
    const schema = doc.components.schemas.ErrorCode;
    expect(schema.enum).toEqual(Object.keys(ERROR_CODES));
    const statuses = schema['x-enumDescriptions'] as Record<string, string>;
    for (const [code, spec] of Object.entries(ERROR_CODES)) {
      expect([code, statuses[code]]).toEqual([code, `${spec.status}: ${spec.description}`]);
      expect([code, doc.info.description.includes(`| \`${code}\` | ${spec.status} |`)]).toEqual([code, true]);
    }
  });

  it('documents each code under its own status on every operation that can answer it', () => {
    const byCode = new Map<string, string[]>();
    for (const name of OPERATION_NAMES) {
      for (const [status, codes] of documentedCodes(name)) {
        for (const code of codes) {
          expect([name, code, status]).toEqual([name, code, String(ERROR_CODES[code as ErrorCode].status)]);
          byCode.set(code, [...(byCode.get(code) ?? []), name]);
        }
      }
    }
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      expect([code, byCode.get(code) ?? []]).toEqual([code, [...ERROR_CODE_OPERATIONS[code]]]);
    }
  });

  it('names the reason phrase of every status as Node does', () => {
    const statuses = [...new Set(Object.values(ERROR_CODES).map((spec) => spec.status))];
    expect(statuses.map((status) => [status, REASON_PHRASES[status]])).toEqual(
      statuses.map((status) => [status, STATUS_CODES[status]]),
    );
  });

  it.each([
    ['ProviderName', PROVIDER_NAMES],
    ['QuoteStatus', QUOTE_STATUSES],
    ['CoverageMode', COVERAGE_MODES],
    ['AttemptStatus', ATTEMPT_STATUSES],
    ['SubmitMethod', SUBMIT_METHODS],
    ['AmountBasis', AMOUNT_BASES],
    ['WebhookEventKind', WEBHOOK_EVENT_KINDS],
    ['FailedSourceReasonCode', KNOWN_FAILED_SOURCE_REASON_CODES],
    ['ChainStatus', CHAIN_STATUSES],
    ['LegStatus', LEG_STATUSES],
    ['LegErrorCode', LEG_ERROR_CODES],
  ] as const)('lists every value of %s', (name, values) => {
    const schema = doc.components.schemas[name];
    const listed = (schema.enum ?? (schema.anyOf as JsonSchema[])[0].enum) as string[];
    expect(listed).toEqual([...values]);
    for (const value of values) expect([value, open.errorsOf(name, value)]).toEqual([value, null]);
  });

  it('has one webhook per event kind, each carrying that kind', () => {
    expect(Object.keys(doc.webhooks)).toEqual([...WEBHOOK_EVENT_KINDS]);
  });

  it('validates each of its examples against its schema, with no field the schemas leave out', () => {
    const all = examples();
    expect(all.length).toBeGreaterThan(30);
    const failures = all.flatMap(({ at, schema, value }) =>
      describeErrors(closed.errors(schema, value)).map((error) => `${at}: ${error}`),
    );
    expect(failures).toEqual([]);
  });

  it('gives request examples that the contract accepts', () => {
    const checks = [
      ...Object.values(REQUEST_EXAMPLES.quote).map((body) => errorsOf(validateQuoteRequest(body, POLICY))),
      ...Object.values(REQUEST_EXAMPLES.prepare).map((body) =>
        errorsOf(validatePrepareRequest(body, POLICY)),
      ),
      ...Object.values(REQUEST_EXAMPLES.submitted).map((body) => errorsOf(validateSubmittedRequest(body))),
      ...Object.values(REQUEST_EXAMPLES.searchAttempts).map((body) =>
        errorsOf(validateAttemptSearchRequest(body, POLICY)),
      ),
    ];
    expect(checks).toEqual(checks.map(() => []));
  });
});

type DtoClass = new () => object;

const REQUEST_DTOS: Record<'quote' | 'prepare' | 'submitted', [string, DtoClass][]> = {
  quote: [
    ['QuoteRequest', QuoteRequestDto],
    ['SourceInput', SourceInputDto],
    ['TargetInput', TargetInputDto],
    ['TargetTokenInput', TargetTokenInputDto],
  ],
  prepare: [
    ['PrepareRequest', PrepareRequestDto],
    ['WalletContext', WalletContextDto],
  ],
  submitted: [
    ['SubmittedRequest', SubmittedRequestDto],
    ['ChainResultInput', ChainResultDto],
    ['WalletAuthorizationInput', WalletAuthorizationInputDto],
  ],
};

function metadataOf(
  dto: DtoClass,
): ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']> {
  return getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false);
}

describe('the request schemas against the request DTOs', () => {
  it.each(Object.values(REQUEST_DTOS).flat())('%s has exactly the fields of its DTO', (name, dto) => {
    const fields = [...new Set(metadataOf(dto).map((m) => m.propertyName))].sort();
    expect(Object.keys(doc.components.schemas[name].properties as object).sort()).toEqual(fields);
  });

  it.each(Object.keys(REQUEST_DTOS) as ('quote' | 'prepare' | 'submitted')[])(
    '%s documents every code its DTOs report as a 400',
    (operation) => {
      const codes = REQUEST_DTOS[operation].flatMap(([, dto]) =>
        metadataOf(dto).map((m) => codeOfContext(m.context)),
      );
      const documented = documentedCodes(operation).get('400') ?? [];
      expect([...new Set(codes)].filter((code) => !documented.includes(code!))).toEqual([]);
    },
  );
});
