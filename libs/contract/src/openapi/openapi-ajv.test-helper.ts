import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { type JsonSchema } from './json-schema';
import { type OpenApiDocument } from './openapi-document';

/** OpenAPI 3.1 schemas are JSON Schema 2020-12: ajv's 2020 dialect, strict about keywords, with formats. */
const SCHEMAS_ID = 'urn:svc:openapi';

export interface OpenApiValidator {
  /** Null when `value` matches the schema, else ajv's errors. */
  errors(schema: JsonSchema, value: unknown): ErrorObject[] | null;
  /** Validates against `#/components/schemas/<name>`. */
  errorsOf(name: string, value: unknown): ErrorObject[] | null;
}

/**
 * A validator for the document's schemas. `closed` adds `unevaluatedProperties: false` to every object of the
 * component schemas (responses are open on the wire, so clients tolerate additions): a real response then fails
 * on any field the document does not describe.
 */
export function openApiValidator(doc: OpenApiDocument, options: { closed: boolean }): OpenApiValidator {
  const ajv = new Ajv2020({
    strict: true,
    strictTypes: false,
    strictRequired: false,
    allErrors: true,
    allowUnionTypes: true,
  });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'x-enumDescriptions' });
  const defs = Object.fromEntries(
    Object.entries(doc.components.schemas).map(([name, schema]) => [
      name,
      options.closed ? close(schema) : schema,
    ]),
  );
  ajv.addSchema(localRefs({ $id: SCHEMAS_ID, $defs: defs }) as JsonSchema);
  const compiled = new Map<JsonSchema, ValidateFunction>();
  const errors = (schema: JsonSchema, value: unknown): ErrorObject[] | null => {
    let validate = compiled.get(schema);
    if (validate === undefined) {
      validate = ajv.compile(localRefs(schema) as JsonSchema);
      compiled.set(schema, validate);
    }
    return validate(value) ? null : (validate.errors ?? []);
  };
  return {
    errors,
    errorsOf: (name, value) => errors({ $ref: `#/components/schemas/${name}` }, value),
  };
}

/** `#/components/schemas/X` → the $defs of the schema registered above. */
function localRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(localRefs);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      key === '$ref' && typeof child === 'string'
        ? child.replace('#/components/schemas/', `${SCHEMAS_ID}#/$defs/`)
        : localRefs(child),
    ]),
  );
}

/** Closes every object schema that lists its properties and says nothing about others. */
function close(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (out.properties && out.type === 'object' && !('additionalProperties' in out)) {
    out.unevaluatedProperties = false;
  }
  if (out.properties) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties as Record<string, JsonSchema>).map(([key, child]) => [key, close(child)]),
    );
  }
  if (typeof out.items === 'object' && out.items !== null) out.items = close(out.items as JsonSchema);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (Array.isArray(out[key])) out[key] = (out[key] as JsonSchema[]).map(close);
  }
  return out;
}

/** ajv's errors in one line each, for test failure messages. */
export function describeErrors(errors: ErrorObject[] | null): string[] {
  return (errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message ?? error.keyword}`);
}
