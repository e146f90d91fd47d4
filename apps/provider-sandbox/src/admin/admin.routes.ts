import { FaultConfigError } from '../faults/fault-config-error';
import { type FaultRegistry } from '../faults/fault-registry';
import { parseProviderFaults } from '../faults/parse-provider-faults';
import { jsonReply, type RouteHandler, type SandboxRoute } from '../http/sandbox-http';
import { type SandboxManifest } from '../manifest/sandbox-manifest';
import { isSandboxProvider } from '../pricing/sandbox-provider';

/** The sandbox's own endpoints: the manifest, and faults set or cleared at runtime. */
export function adminRoutes(params: {
  faults: FaultRegistry;
  manifest: () => SandboxManifest;
}): SandboxRoute[] {
  const { faults } = params;
  const listFaults = () => jsonReply(200, { faults: faults.list() });
  const setFaults: RouteHandler = (request) => {
    try {
      faults.apply(parseProviderFaults(JSON.parse(request.rawBody || 'null')));
    } catch (error) {
      if (error instanceof FaultConfigError || error instanceof SyntaxError) {
        return Promise.resolve(jsonReply(400, { message: error.message }));
      }
      throw error;
    }
    return Promise.resolve(listFaults());
  };
  const clearFaults: RouteHandler = (request) => {
    const provider = request.query.get('provider');
    if (provider !== null && !isSandboxProvider(provider)) {
      return Promise.resolve(jsonReply(400, { message: 'provider: must be one of relay, across, mayan' }));
    }
    faults.clear(provider ?? undefined);
    return Promise.resolve(listFaults());
  };
  return [
    { method: 'GET', pattern: '/health', handle: () => Promise.resolve(jsonReply(200, { status: 'ok' })) },
    { method: 'GET', pattern: '/manifest', handle: () => Promise.resolve(jsonReply(200, params.manifest())) },
    { method: 'GET', pattern: '/faults', handle: () => Promise.resolve(listFaults()) },
    { method: 'POST', pattern: '/faults', handle: setFaults },
    { method: 'DELETE', pattern: '/faults', handle: clearFaults },
  ];
}
