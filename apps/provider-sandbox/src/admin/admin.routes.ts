import { FaultConfigError } from '../faults/fault-config-error';
import { type FaultRegistry } from '../faults/fault-registry';
import { parseProviderFaults } from '../faults/parse-provider-faults';
import { jsonReply, type RouteHandler, type SandboxRoute } from '../http/sandbox-http';
import { type L1FeeBook } from '../fees/l1-fee-book';
import { type SandboxManifest } from '../manifest/sandbox-manifest';
import { isSandboxProvider } from '../pricing/sandbox-provider';
import { type ReorgableChain, reorgChain, ReorgRequestError } from './reorg-chain';

/**
 * The sandbox's own endpoints: the manifest, faults set or cleared at runtime, and a chain reorganisation on request
 * (`POST /reorg {"chainId", "depth"}`).
 */
export function adminRoutes(params: {
  faults: FaultRegistry;
  manifest: () => SandboxManifest;
  chains?: readonly ReorgableChain[];
  l1Fees?: L1FeeBook;
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
  const reorg: RouteHandler = async (request) => {
    try {
      return jsonReply(200, await reorgChain(params.chains ?? [], JSON.parse(request.rawBody || 'null')));
    } catch (error) {
      if (error instanceof ReorgRequestError || error instanceof SyntaxError) {
        return jsonReply(400, { message: error.message });
      }
      throw error;
    }
  };
  // Like an OP receipt's l1Fee, l1GasUsed, l1BaseFee… fields, in base-unit strings; 404 until the block is charged.
  const l1Fee: RouteHandler = (request) => {
    const charge = params.l1Fees?.get(request.params.txHash ?? '');
    if (!charge)
      return Promise.resolve(jsonReply(404, { message: 'no L1 data fee charged for this transaction' }));
    return Promise.resolve(
      jsonReply(
        200,
        Object.fromEntries(
          Object.entries(charge).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]),
        ),
      ),
    );
  };
  return [
    { method: 'GET', pattern: '/l1-fees/:txHash', handle: l1Fee },
    { method: 'POST', pattern: '/reorg', handle: reorg },
    { method: 'GET', pattern: '/health', handle: () => Promise.resolve(jsonReply(200, { status: 'ok' })) },
    { method: 'GET', pattern: '/manifest', handle: () => Promise.resolve(jsonReply(200, params.manifest())) },
    { method: 'GET', pattern: '/faults', handle: () => Promise.resolve(listFaults()) },
    { method: 'POST', pattern: '/faults', handle: setFaults },
    { method: 'DELETE', pattern: '/faults', handle: clearFaults },
  ];
}
