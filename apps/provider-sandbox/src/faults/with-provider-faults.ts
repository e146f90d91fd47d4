import { toJsonText, type RouteHandler, type SandboxReply } from '../http/sandbox-http';
import { type SandboxProvider } from '../pricing/sandbox-provider';
import { type FaultRegistry } from './fault-registry';

/** How one dialect spells failure: its 5xx/429 body, and the mapping of anything a handler throws. */
export interface DialectErrors {
  serverError(status: number): SandboxReply;
  fromError(error: unknown): SandboxReply;
}

/**
 * Wraps a provider endpoint with that provider's faults, read on every request so POST /faults takes
 * effect immediately, and turns thrown errors into the dialect's error bodies.
 */
export function withProviderFaults(
  options: {
    faults: FaultRegistry;
    provider: SandboxProvider;
    endpoint: 'quote' | 'status';
    errors: DialectErrors;
  },
  handler: RouteHandler,
): RouteHandler {
  return async (request) => {
    const fault = options.faults.get(options.provider);
    const scope = fault?.endpoints ?? 'all';
    const active = fault && (scope === 'all' || scope === options.endpoint) ? fault : undefined;
    if (active?.timeout) return { kind: 'hang' };
    if (active?.latencyMs) await sleep(active.latencyMs);
    if (active?.httpStatus) return options.errors.serverError(active.httpStatus);
    let reply: SandboxReply;
    try {
      reply = await handler(request);
    } catch (error) {
      reply = options.errors.fromError(error);
    }
    return active?.malformedJson ? truncate(reply) : reply;
  };
}

/** Cuts the JSON in half, the way a proxy dropping the connection mid-body would. */
function truncate(reply: SandboxReply): SandboxReply {
  if (reply.kind !== 'json') return reply;
  const text = toJsonText(reply.body);
  return {
    kind: 'raw',
    status: reply.status,
    text: text.slice(0, Math.max(1, Math.floor(text.length / 2))),
    contentType: 'application/json; charset=utf-8',
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
