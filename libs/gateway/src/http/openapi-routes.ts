import { createHash } from 'node:crypto';
import { buildOpenApiDocument, renderApiReferenceHtml } from '@svc/contract';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

/** Paths of the served reference, outside the signed prefix. */
export const OPENAPI_PATHS = { document: '/openapi.json', reference: '/docs' } as const;

/** Browsers and proxies may keep them this long; the ETag revalidates after. */
const CACHE_CONTROL = 'public, max-age=300';

/**
 * Serves the OpenAPI 3.1 document built from libs/contract (the same as docs/openapi.json) and its rendered
 * reference page (docs/api-reference.html: self-contained, no script or style from elsewhere, so it works offline).
 * Unsigned and cacheable: built once, with a strong ETag answered 304 on If-None-Match.
 */
export function serveOpenApi(fastify: FastifyInstance): void {
  const doc = buildOpenApiDocument();
  const files = [
    { path: OPENAPI_PATHS.document, type: 'application/json; charset=utf-8', body: JSON.stringify(doc) },
    { path: OPENAPI_PATHS.reference, type: 'text/html; charset=utf-8', body: renderApiReferenceHtml(doc) },
  ];
  for (const file of files) {
    const etag = `"${createHash('sha256').update(file.body).digest('base64url').slice(0, 27)}"`;
    fastify.get(file.path, (request: FastifyRequest, reply: FastifyReply) => {
      void reply.header('Cache-Control', CACHE_CONTROL).header('ETag', etag);
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.header('Content-Type', file.type).send(file.body);
    });
  }
}
