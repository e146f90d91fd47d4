import { type JsonSchema, type OpenApiDocument } from '@svc/contract';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Validates values against a committed OpenAPI document's component schemas as partners get them, every object
 * closed (no undocumented field): `validator('ErrorResponse', body)` lists the problems, empty when it conforms.
 */
export function strictOpenApiValidator(
  document: OpenApiDocument,
): (name: string, value: unknown) => string[] {
  const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allErrors: true });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'x-enumDescriptions' });
  const close = (schema: unknown): unknown => {
    if (Array.isArray(schema)) return schema.map(close);
    if (typeof schema !== 'object' || schema === null) return schema;
    const out: JsonSchema = Object.fromEntries(
      Object.entries(schema).map(([key, value]) => [key, close(value)]),
    );
    if (typeof out.$ref === 'string')
      out.$ref = out.$ref.replace('#/components/schemas/', 'urn:svc:doc#/$defs/');
    if (out.type === 'object' && out.properties && !('additionalProperties' in out))
      out.unevaluatedProperties = false;
    return out;
  };
  ajv.addSchema({ $id: 'urn:svc:doc', $defs: close(document.components.schemas) as JsonSchema });
  return (name, value) => {
    const validate = ajv.getSchema(`urn:svc:doc#/$defs/${name}`)!;
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
  };
}
