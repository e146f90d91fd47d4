import { ChainRpcError } from '@svc/chains';
import { type AttemptRecord, flattenSlices, SOURCE_TX_CLOCK_SKEW_MS, type TrackingState } from '@svc/domain';
import { type Address, type Client, erc20Abi, type Hash } from 'viem';
import { getBlock, getBlockNumber, getLogs } from 'viem/actions';
import { readSourceStep } from './read-source-step';
import { sliceProvider } from './slice-provider';
import { type TrackerDeps } from './tracker-deps';

/** A native-value source is found by scanning blocks: at most this many per chain. */
const NATIVE_SCAN_BLOCKS = 256n;

/**
 * Before an attempt without evidence expires: did the wallet execute the prepared calls anyway? Every transaction the
 * wallet sent since the attempt was prepared is a candidate (its ERC-20 transfers, and for native value a bounded block
 * scan), read like reported evidence (same calls, same claim, mined after prepare); and a provider that finds a leg by
 * request id is asked. Found: the attempt is tracked instead of expired.
 */
export async function searchDeposits(
  deps: TrackerDeps,
  record: AttemptRecord,
  state: TrackingState,
  now: number,
): Promise<{ record: AttemptRecord; state: TrackingState; found: boolean }> {
  let current = record;
  let tracking = state;
  const { prepared } = record;
  for (const action of prepared.chainActions) {
    if (!deps.chains.has(action.chainId)) continue;
    const client = deps.chains.client(action.chainId);
    const native = (action.calls ?? action.transactions ?? []).some((c) => BigInt(c.value) > 0n);
    const since = await blockAt(client, prepared.preparedAt - SOURCE_TX_CLOCK_SKEW_MS);
    for (const txHash of await walletTransactions(client, prepared.wallet as Address, since, native)) {
      ({ record: current, state: tracking } = await readSourceStep(deps, current, tracking, {
        chainId: action.chainId,
        txHash,
        now,
      }));
    }
  }
  let found = current.sourceTxs.some((t) => t.outcome === 'confirmed');
  for (const { slice } of flattenSlices(prepared)) {
    const provider = sliceProvider(deps, slice);
    if (found || provider === null || !provider.adapter.tracking.pollsBeforeSourceTx) continue;
    const result = await provider.adapter.status(provider.context, {
      signal: AbortSignal.timeout(deps.providerTimeoutMs),
      sourceTxHash: null,
    });
    found =
      result.ok && !(result.progress.state === 'pending' && result.progress.providerStatus === 'waiting');
  }
  return { record: current, state: tracking, found };
}

/** Hashes of transactions the wallet sent from block `since` on: its ERC-20 transfers, and native sends if asked. */
async function walletTransactions(
  client: Client,
  wallet: Address,
  since: bigint,
  native: boolean,
): Promise<Hash[]> {
  try {
    const logs = await getLogs(client, {
      event: erc20Abi.find((e) => e.type === 'event' && e.name === 'Transfer')!,
      args: { from: wallet },
      fromBlock: since,
      toBlock: 'latest',
    });
    const hashes = new Set<Hash>(logs.map((l) => l.transactionHash).filter((h): h is Hash => h !== null));
    if (native) {
      const latest = await getBlockNumber(client);
      const first = latest - since > NATIVE_SCAN_BLOCKS ? latest - NATIVE_SCAN_BLOCKS : since;
      for (let n = first; n <= latest; n++) {
        const block = await getBlock(client, { blockNumber: n, includeTransactions: true });
        for (const tx of block.transactions)
          if (tx.from.toLowerCase() === wallet.toLowerCase()) hashes.add(tx.hash);
      }
    }
    return [...hashes];
  } catch (err) {
    throw new ChainRpcError(client, 'searching the wallet transactions', err);
  }
}

/** The last block stamped at or before `timeMs` (binary search over block timestamps). */
async function blockAt(client: Client, timeMs: number): Promise<bigint> {
  try {
    const target = BigInt(Math.floor(timeMs / 1000));
    let low = 0n;
    let high = await getBlockNumber(client);
    while (low < high) {
      const mid = (low + high + 1n) / 2n;
      const block = await getBlock(client, { blockNumber: mid });
      if (block.timestamp <= target) low = mid;
      else high = mid - 1n;
    }
    return low;
  } catch (err) {
    throw new ChainRpcError(client, 'finding the block at prepare time', err);
  }
}
