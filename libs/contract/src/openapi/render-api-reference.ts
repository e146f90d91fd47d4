import { type JsonSchema } from './json-schema';
import { type OpenApiDocument } from './openapi-document';

/**
 * The API reference as one self-contained HTML page: inline CSS, no script, no font, image or stylesheet from
 * anywhere, so it works offline and under a strict Content-Security-Policy (`default-src 'none'; style-src
 * 'unsafe-inline'`). Rendered from the OpenAPI document alone; deterministic.
 */
export function renderApiReferenceHtml(doc: OpenApiDocument): string {
  const schemas = doc.components.schemas;
  const tags = doc.tags.filter((tag) => tag.name !== 'Webhooks');
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
  const nav = [
    link('#overview', 'Overview'),
    link('#authentication', 'Authentication'),
    ...tags.flatMap((tag) => [
      `<p class="nav-group">${escapeHtml(tag.name)}</p>`,
      ...operations
        .filter(({ op }) => (op.tags as string[])[0] === tag.name)
        .map(({ method, op }) =>
          link(
            `#op-${String(op.operationId)}`,
            `<span class="m ${method}">${method.toUpperCase()}</span> ${escapeHtml(String(op.summary))}`,
            true,
          ),
        ),
    ]),
    `<p class="nav-group">Webhooks</p>`,
    ...Object.keys(doc.webhooks).map((name) => link(`#webhook-${name}`, escapeHtml(name))),
    `<p class="nav-group">Schemas</p>`,
    ...Object.keys(schemas).map((name) => link(`#schema-${name}`, escapeHtml(name))),
  ];
  const body = [
    `<header><h1>${escapeHtml(doc.info.title)}</h1><p class="version">OpenAPI ${escapeHtml(doc.openapi)} · API version ${escapeHtml(doc.info.version)} · <a href="openapi.json">openapi.json</a></p><p>${inline(doc.info.summary)}</p></header>`,
    `<section id="overview">${markdown(doc.info.description)}</section>`,
    `<section id="authentication"><h2>Authentication</h2>${renderSecurity(doc)}</section>`,
    ...tags.map(
      (tag) =>
        `<section id="tag-${tag.name}"><h2>${escapeHtml(tag.name)}</h2>${markdown(tag.description)}${operations
          .filter(({ op }) => (op.tags as string[])[0] === tag.name)
          .map(({ path, method, op }) =>
            renderOperation(doc, `op-${String(op.operationId)}`, method, path, op),
          )
          .join('')}</section>`,
    ),
    `<section id="webhooks"><h2>Webhooks</h2>${markdown(doc.tags.find((tag) => tag.name === 'Webhooks')?.description ?? '')}${Object.entries(
      doc.webhooks,
    )
      .map(([name, methods]) =>
        Object.entries(methods)
          .map(([method, op]) =>
            renderOperation(doc, `webhook-${name}`, method, `${name} → your callback URL`, op),
          )
          .join(''),
      )
      .join('')}</section>`,
    `<section id="schemas"><h2>Schemas</h2>${Object.entries(schemas)
      .map(([name, schema]) => renderSchema(name, schema))
      .join('')}</section>`,
  ];
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(doc.info.title)} reference</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<nav>${nav.join('\n')}</nav>`,
    `<main>${body.join('\n')}</main>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function link(href: string, html: string, raw = false): string {
  return `<a href="${escapeHtml(href)}"${raw ? ' class="op"' : ''}>${html}</a>`;
}

function renderSecurity(doc: OpenApiDocument): string {
  const requirements = doc.security
    .map(
      (requirement) =>
        `<li>${Object.keys(requirement)
          .map((name) => `<code>${escapeHtml(name)}</code>`)
          .join(' + ')}</li>`,
    )
    .join('');
  const schemes = Object.entries(doc.components.securitySchemes)
    .map(
      ([name, scheme]) =>
        `<h3 id="security-${name}">${escapeHtml(name)} <code>${escapeHtml(String(scheme.name))}</code> header</h3>${markdown(text(scheme.description))}`,
    )
    .join('');
  return `<p>Every operation needs one of these header sets (the canonical scheme first):</p><ul>${requirements}</ul>${schemes}`;
}

function renderOperation(
  doc: OpenApiDocument,
  id: string,
  method: string,
  path: string,
  op: JsonSchema,
): string {
  const parameters = ((op.parameters as JsonSchema[] | undefined) ?? []).map((p) => resolveParameter(doc, p));
  const parameterRows = parameters
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(String(p.name))}</code></td><td>${escapeHtml(String(p.in))}</td><td>${p.required ? 'yes' : 'no'}</td><td>${typeLabel(p.schema as JsonSchema)}${constraints(p.schema as JsonSchema)}</td><td>${markdown(text(p.description))}</td></tr>`,
    )
    .join('');
  const body = op.requestBody as JsonSchema | undefined;
  const bodyContent = body ? jsonContent(body) : undefined;
  const responses = Object.entries(op.responses as Record<string, JsonSchema>).map(
    ([status, response]): [string, JsonSchema] => [status, resolveResponse(doc, response)],
  );
  return [
    `<article id="${escapeHtml(id)}" class="operation">`,
    `<h3><span class="m ${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code></h3>`,
    `<p class="summary">${inline(text(op.summary))}</p>`,
    markdown(text(op.description)),
    parameterRows
      ? `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Required</th><th>Type</th><th>Description</th></tr></thead><tbody>${parameterRows}</tbody></table>`
      : '',
    body && bodyContent
      ? `<h4>Request body ${body.required ? '(required)' : '(optional)'}</h4>${markdown(text(body.description))}<p>${typeLabel(bodyContent.schema as JsonSchema)}</p>${bodyTable(doc, bodyContent.schema as JsonSchema)}${examples(bodyContent)}`
      : '',
    `<h4>Responses</h4><table><thead><tr><th>Status</th><th>Description</th><th>Body</th></tr></thead><tbody>${responses
      .map(([status, response]) => {
        const content = jsonContent(response);
        return `<tr><td><strong>${escapeHtml(status)}</strong></td><td>${markdown(text(response.description))}${content ? examples(content) : ''}</td><td>${content ? typeLabel(content.schema as JsonSchema) : ''}</td></tr>`;
      })
      .join('')}</tbody></table>`,
    '</article>',
  ].join('\n');
}

/** The fields of a request body's component schema, in place. */
function bodyTable(doc: OpenApiDocument, schema: JsonSchema): string {
  const name = typeof schema.$ref === 'string' ? schema.$ref.split('/').pop() : undefined;
  const target = name === undefined ? schema : doc.components.schemas[name];
  return target?.properties ? propertyTable(target) : '';
}

function resolveParameter(doc: OpenApiDocument, parameter: JsonSchema): JsonSchema {
  const target = parameter.$ref;
  if (typeof target !== 'string') return parameter;
  return doc.components.parameters[target.split('/').pop() ?? ''] ?? parameter;
}

function resolveResponse(doc: OpenApiDocument, response: JsonSchema): JsonSchema {
  const target = response.$ref;
  if (typeof target !== 'string') return response;
  return doc.components.responses[target.split('/').pop() ?? ''] ?? response;
}

function jsonContent(holder: JsonSchema): JsonSchema | undefined {
  return (holder.content as Record<string, JsonSchema> | undefined)?.['application/json'];
}

function examples(content: JsonSchema): string {
  const named = (content.examples as Record<string, JsonSchema> | undefined) ?? {};
  const all: [string, unknown][] = [
    ...(content.example === undefined ? [] : [['Example', content.example] as [string, unknown]]),
    ...Object.entries(named).map(([key, example]): [string, unknown] => [
      text(example.summary) || key,
      example.value,
    ]),
  ];
  return all
    .map(
      ([title, value]) =>
        `<details><summary>${escapeHtml(title)}</summary><pre><code>${escapeHtml(JSON.stringify(value, null, 2))}</code></pre></details>`,
    )
    .join('');
}

function renderSchema(name: string, schema: JsonSchema): string {
  const parts = [`<article id="schema-${escapeHtml(name)}" class="schema"><h3>${escapeHtml(name)}</h3>`];
  parts.push(markdown(text(schema.description)));
  const enumValues = enumOf(schema);
  if (enumValues) {
    const descriptions = (schema['x-enumDescriptions'] as Record<string, string> | undefined) ?? {};
    const open = Array.isArray(schema.anyOf);
    const described = enumValues.some((value) => descriptions[value] !== undefined);
    parts.push(
      `<p>${open ? 'Known values (an open set: any other string may appear)' : 'Values'}:</p><table><tbody>${enumValues
        .map(
          (value) =>
            `<tr><td><code>${escapeHtml(value)}</code></td>${described ? `<td>${escapeHtml(descriptions[value] ?? '')}</td>` : ''}</tr>`,
        )
        .join('')}</tbody></table>`,
    );
  } else if (schema.properties) {
    parts.push(propertyTable(schema));
  } else {
    parts.push(`<p>${typeLabel(schema)}${constraints(schema)}</p>`);
  }
  parts.push('</article>');
  return parts.join('\n');
}

function enumOf(schema: JsonSchema): string[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum as string[];
  const known = (schema.anyOf as JsonSchema[] | undefined)?.find((branch) => Array.isArray(branch.enum));
  return known ? (known.enum as string[]) : undefined;
}

function propertyTable(schema: JsonSchema): string {
  const rows = propertyRows(schema, '');
  const rules = [
    schema.additionalProperties === false ? 'Unknown fields are rejected.' : '',
    schema.oneOf || schema.anyOf || schema.if ? 'Cross-field rules apply: see the description.' : '',
  ].filter(Boolean);
  return `<table><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>${rules.map((rule) => `<p class="note">${rule}</p>`).join('')}`;
}

function propertyRows(schema: JsonSchema, prefix: string): string[] {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries((schema.properties as Record<string, JsonSchema> | undefined) ?? {}).flatMap(
    ([name, property]) => {
      const row = `<tr><td><code>${escapeHtml(prefix + name)}</code></td><td>${typeLabel(property)}${constraints(property)}</td><td>${required.has(name) ? 'yes' : 'no'}</td><td>${markdown(text(property.description))}</td></tr>`;
      const nested =
        property.type === 'object' && property.properties ? propertyRows(property, `${prefix}${name}.`) : [];
      return [row, ...nested];
    },
  );
}

/** A short, linked type: `string | null`, `array of ChainCall`, `QuoteStatus`. */
function typeLabel(schema: JsonSchema | undefined): string {
  if (schema === undefined) return '';
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop() ?? '';
    return `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>`;
  }
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as JsonSchema[];
    if (enumOf(schema) && branches.length === 2 && !branches.some((b) => b.type === 'null'))
      return 'string (open set)';
    return branches.map(typeLabel).join(' | ');
  }
  // An allOf here is a component narrowed in place (an error response's codes): name the component.
  if (Array.isArray(schema.allOf)) {
    const named = (schema.allOf as JsonSchema[]).filter((branch) => typeof branch.$ref === 'string');
    return (named.length > 0 ? named : (schema.allOf as JsonSchema[])).map(typeLabel).join(' and ');
  }
  if ('const' in schema) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
  if (Array.isArray(schema.type))
    return (schema.type as string[]).map((t) => typeLabel({ ...schema, type: t })).join(' | ');
  if (schema.type === 'array')
    return `array of ${typeLabel(schema.items as JsonSchema | undefined) || 'any'}`;
  if (
    schema.type === 'object' &&
    schema.additionalProperties &&
    typeof schema.additionalProperties === 'object'
  )
    return `map of ${typeLabel(schema.additionalProperties as JsonSchema)}`;
  if (Array.isArray(schema.enum))
    return `${escapeHtml(text(schema.type) || 'string')}: ${(schema.enum as unknown[]).map((v) => `<code>${escapeHtml(String(v))}</code>`).join(', ')}`;
  if (typeof schema.type === 'string')
    return escapeHtml(schema.type + (typeof schema.format === 'string' ? ` (${schema.format})` : ''));
  if (schema.properties) return 'object';
  return 'any';
}

/** The constraints that matter to a caller, as a short line under the type. */
function constraints(schema: JsonSchema | undefined): string {
  if (schema === undefined) return '';
  const found: string[] = [];
  const range = (min: unknown, max: unknown, unit: string) => {
    if (min !== undefined && max !== undefined) found.push(`${text(min)} to ${text(max)}${unit}`);
    else if (min !== undefined) found.push(`at least ${text(min)}${unit}`);
    else if (max !== undefined) found.push(`at most ${text(max)}${unit}`);
  };
  range(schema.minimum, schema.maximum, '');
  if (schema.exclusiveMinimum !== undefined) found.push(`greater than ${text(schema.exclusiveMinimum)}`);
  range(schema.minLength, schema.maxLength, ' characters');
  range(schema.minItems, schema.maxItems, ' items');
  if (typeof schema.pattern === 'string') found.push(`pattern <code>${escapeHtml(schema.pattern)}</code>`);
  if (schema.default !== undefined)
    found.push(`default <code>${escapeHtml(JSON.stringify(schema.default))}</code>`);
  if (schema.type === 'array' && schema.items) {
    const items = constraints(schema.items as JsonSchema);
    if (items) found.push(`each: ${items.replace(/^<br><small>|<\/small>$/g, '')}`);
  }
  return found.length ? `<br><small>${found.join('; ')}</small>` : '';
}

/** The Markdown the document's descriptions use: headings, paragraphs, lists, tables, fenced code, inline code. */
export function markdown(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index];
    if (line.trim() === '') {
      index++;
    } else if (line.startsWith('```')) {
      const code: string[] = [];
      index++;
      while (index < lines.length && !lines[index].startsWith('```')) code.push(lines[index++]);
      index++;
      out.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
    } else if (/^#{1,6} /.test(line)) {
      const level = Math.min(6, line.indexOf(' ') + 1);
      out.push(`<h${level}>${inline(line.replace(/^#+ /, ''))}</h${level}>`);
      index++;
    } else if (line.startsWith('|')) {
      const rows: string[][] = [];
      while (index < lines.length && lines[index].startsWith('|')) {
        rows.push(
          lines[index++]
            .replace(/^\||\|$/g, '')
            .split('|')
            .map((cell) => cell.trim()),
        );
      }
      const [head = [], , ...rest] = rows;
      out.push(
        `<table><thead><tr>${head.map((cell) => `<th>${inline(cell)}</th>`).join('')}</tr></thead><tbody>${rest
          .map((row) => `<tr>${row.map((cell) => `<td>${inline(cell)}</td>`).join('')}</tr>`)
          .join('')}</tbody></table>`,
      );
    } else if (/^(- |\d+\. )/.test(line)) {
      const ordered = /^\d+\. /.test(line);
      const items: string[] = [];
      while (index < lines.length && /^(- |\d+\. )/.test(lines[index])) {
        items.push(`<li>${inline(lines[index++].replace(/^(- |\d+\. )/, ''))}</li>`);
      }
      out.push(ordered ? `<ol>${items.join('')}</ol>` : `<ul>${items.join('')}</ul>`);
    } else {
      const paragraph: string[] = [];
      while (
        index < lines.length &&
        lines[index].trim() !== '' &&
        !/^(```|#{1,6} |\||- |\d+\. )/.test(lines[index])
      ) {
        paragraph.push(lines[index++]);
      }
      out.push(`<p>${inline(paragraph.join(' '))}</p>`);
    }
  }
  return out.join('\n');
}

/** Inline Markdown: `code`, **bold**; everything else escaped. */
function inline(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part) =>
      part.startsWith('`') && part.endsWith('`') && part.length >= 2
        ? `<code>${escapeHtml(part.slice(1, -1))}</code>`
        : escapeHtml(part).replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>'),
    )
    .join('');
}

/** A string or number as text; anything else (absent, an object) as ''. */
function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1d2433; --muted: #5b6474; --bg: #ffffff; --panel: #f5f7fa; --line: #dde2ea; --accent: #2557d6; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e9ef; --muted: #a3acbb; --bg: #14171c; --panel: #1c2027; --line: #2c323c; --accent: #7aa2ff; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); display: flex; }
nav { position: sticky; top: 0; height: 100vh; overflow-y: auto; width: 280px; flex: none; padding: 16px; border-right: 1px solid var(--line); background: var(--panel); font-size: 13px; }
nav a { display: block; padding: 2px 4px; color: var(--fg); text-decoration: none; border-radius: 4px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
nav a:hover { background: var(--line); }
.nav-group { margin: 14px 0 4px; font-weight: 600; text-transform: uppercase; font-size: 11px; color: var(--muted); }
main { flex: 1; min-width: 0; max-width: 1100px; padding: 24px 40px 80px; }
h1 { margin: 0 0 4px; } h2 { margin-top: 48px; padding-top: 8px; border-top: 2px solid var(--line); } h3 { margin-top: 32px; }
.version { color: var(--muted); margin: 0; }
a { color: var(--accent); }
code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--panel); padding: 1px 4px; border-radius: 3px; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 12px; overflow-x: auto; }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; width: 100%; margin: 8px 0 16px; font-size: 14px; }
th, td { border: 1px solid var(--line); padding: 6px 8px; text-align: left; vertical-align: top; }
th { background: var(--panel); }
td p { margin: 0 0 6px; } td p:last-child { margin-bottom: 0; }
small { color: var(--muted); }
.operation, .schema { border-top: 1px solid var(--line); }
.m { display: inline-block; min-width: 48px; text-align: center; font-size: 12px; font-weight: 700; border-radius: 4px; padding: 1px 6px; color: #fff; background: #6b7280; }
.m.get { background: #1f8a4c; } .m.post { background: #2557d6; }
.summary { font-weight: 600; }
.note { color: var(--muted); font-size: 13px; }
details { margin: 6px 0; } summary { cursor: pointer; color: var(--accent); }
@media (max-width: 800px) { body { display: block; } nav { position: static; width: auto; height: auto; } main { padding: 16px; } }
`;
