import { join } from 'node:path';
import { buildOpenApiDocument, renderApiReferenceHtml } from '@svc/contract';
import { format, resolveConfig } from 'prettier';
import { API_REFERENCE_HTML, OPENAPI_JSON, REPO_ROOT } from './paths';

export interface GeneratedFile {
  /** Relative to the repository root. */
  path: string;
  content: string;
}

/**
 * The committed artefacts, exactly as `npm run openapi` writes them: the document built from libs/contract and its
 * rendered page, each formatted by the repository's Prettier configuration so that `prettier --check .` agrees.
 */
export async function generateOpenApiFiles(): Promise<GeneratedFile[]> {
  const doc = buildOpenApiDocument();
  return Promise.all([
    formatted(OPENAPI_JSON, JSON.stringify(doc, null, 2)),
    formatted(API_REFERENCE_HTML, renderApiReferenceHtml(doc)),
  ]);
}

/** `text` formatted as Prettier formats `path` in this repository. */
export async function formatted(path: string, text: string): Promise<GeneratedFile> {
  const filepath = join(REPO_ROOT, path);
  const options = (await resolveConfig(filepath)) ?? {};
  return { path, content: await format(text, { ...options, filepath }) };
}
