/**
 * Building blocks of the OpenAPI document's schemas (JSON Schema 2020-12, the dialect of OpenAPI 3.1).
 *
 * Object schemas are written against the contract's own TypeScript types: `objectSchema<T>()` takes one entry per
 * property of `T`, and the type of each entry says whether the property is optional and whether it is nullable. A
 * field added to (or removed from) a wire type, or made optional or nullable, is therefore a compile error here
 * until the document follows it (`npm run typecheck`).
 */

/** A JSON Schema object. Loose on purpose: the document is data, checked by the linter and by ajv in the tests. */
export type JsonSchema = { [keyword: string]: unknown };

/** `#/components/schemas/<name>`. */
export function ref(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** `schema` or null: a type list for a plain typed schema, `anyOf` otherwise (a reference, an enum, a const). */
export function nullable(schema: JsonSchema): JsonSchema {
  const plain = typeof schema.type === 'string' && !('enum' in schema) && !('const' in schema);
  if (plain) return { ...schema, type: [schema.type, 'null'] };
  const { description, ...rest } = schema;
  return {
    ...(description === undefined ? {} : { description }),
    anyOf: [rest, { type: 'null' }],
  };
}

/** A closed set of string values (the spec's enumerations and the error codes). */
export function enumSchema(values: readonly string[], description: string): JsonSchema {
  return { type: 'string', enum: [...values], description };
}

/**
 * An open set of string values: the values known today, and any other string (partners treat an unknown value as
 * the text says). Written as `anyOf` so that generated clients keep the known values as a union with `string`.
 */
export function openEnumSchema(values: readonly string[], description: string): JsonSchema {
  return { description, anyOf: [{ type: 'string', enum: [...values] }, { type: 'string' }] };
}

type IsOptional<T, K extends keyof T> = Partial<Pick<T, K>> extends Pick<T, K> ? true : false;
type IsNullable<T, K extends keyof T> = null extends T[K] ? true : false;

/** One property: its schema, and the two flags the TypeScript type forces to match. */
export type FieldSpec<Optional extends boolean = boolean, Nullable extends boolean = boolean> = {
  schema: JsonSchema;
  description?: string;
} & (Optional extends true ? { optional: true } : { optional?: never }) &
  (Nullable extends true ? { nullable: true } : { nullable?: never });

/** Exactly one entry per property of `T`, each flagged optional and nullable exactly when `T`'s property is. */
export type FieldsOf<T> = { [K in keyof T]-?: FieldSpec<IsOptional<T, K>, IsNullable<T, K>> };

export interface ObjectOptions {
  description: string;
  /** Requests refuse unknown fields (`unknown_field`); responses may grow and are left open. */
  closed?: boolean;
  /** Extra keywords (if/then, anyOf, …) merged into the object schema. */
  extra?: JsonSchema;
}

/** An object schema whose properties, required list and nullability follow `fields` (and so the type `T`). */
export function objectSchema<T>(fields: FieldsOf<T>, options: ObjectOptions): JsonSchema {
  const entries = Object.entries(fields) as [string, FieldSpec][];
  const properties: Record<string, JsonSchema> = {};
  for (const [name, field] of entries) {
    const withDescription =
      field.description === undefined ? field.schema : { ...field.schema, description: field.description };
    properties[name] = field.nullable ? nullable(withDescription) : withDescription;
  }
  const required = entries.filter(([, field]) => !field.optional).map(([name]) => name);
  return {
    type: 'object',
    description: options.description,
    ...(required.length > 0 ? { required } : {}),
    properties,
    ...(options.closed ? { additionalProperties: false } : {}),
    ...options.extra,
  };
}

/** `X-Partner-Id` for `x-partner-id`: the contract keeps header names lower case, as Node presents them. */
export function headerName(lowerCase: string): string {
  return lowerCase
    .split('-')
    .map((part) => (part === '' ? part : part[0].toUpperCase() + part.slice(1)))
    .join('-');
}
