import { ChainRpcError } from '@svc/chains';
import { type AttemptRecord, flattenSlices, SOURCE_TX_CLOCK_SKEW_MS, type TrackingState } from '@svc/domain';
import {
  type AbiEvent,
  type Address,
  type Client,
  decodeFunctionData,
  erc20Abi,
  type Hash,
  type Hex,
  isAddress,
  pad,
  toHex,
} from 'viem';
import { getBlock, getBlockNumber, getLogs } from 'viem/actions';
import { observeSourceTransaction } from '../observe/observe-source-transaction';
import { readSourceStep } from './read-source-step';
import { sliceProvider } from './slice-provider';
import { type TrackerDeps } from './tracker-deps';

/**
 * At most this many candidate transactions are read per attempt (each about three RPC calls), oldest first: the
 * topic filters leave only transfers of the prepared tokens to the prepared spenders and targets, so a real deposit
 * is among the first few; spam (other tokens, other counterparties) never becomes a candidate.
 */
export const DEPOSIT_SEARCH_MAX_CANDIDATES = 16;
/** The search covers at most this many blocks back from the latest, per chain. */
export const DEPOSIT_SEARCH_MAX_BLOCKS = 10_000n;
/**
 * Blocks one eth_getLogs request covers at most: hosted nodes refuse wider ranges (2 000 to 10 000 blocks is common),
 * so a longer search asks in windows of this many, oldest first.
 */
export const DEPOSIT_SEARCH_LOGS_RANGE = 2_000n;
/**
 * Every JSON-RPC request of one search run counts against this (the block at prepare time, the log queries, the
 * candidates' reads); a run that would exceed it stops and fails, and is retried with the tracking workflow's backoff.
 */
export const DEPOSIT_SEARCH_MAX_RPC_CALLS = 96;

/** A search run stopped at its budget. */
export class DepositSearchBudgetError extends Error {
  override readonly name = 'DepositSearchBudgetError' as const;
  constructor() {
    super(`the deposit search stopped at its budget of ${DEPOSIT_SEARCH_MAX_RPC_CALLS} RPC calls`);
  }
}

const TRANSFER = erc20Abi.find((e) => e.type === 'event' && e.name === 'Transfer')! as AbiEvent;
const APPROVAL = erc20Abi.find((e) => e.type === 'event' && e.name === 'Approval')! as AbiEvent;

/**
 * Before an attempt without evidence expires: did the wallet execute the prepared calls anyway? Candidates are found
 * by log queries filtered on chain (topic filters, not reading and discarding): ERC-20 `Transfer` from the wallet
 * and `Approval` by the wallet, emitted by the prepared calls' targets (the tokens), to the prepared spenders,
 * transfer recipients and targets; and for native value, events of the prepared targets naming the wallet in an
 * indexed topic. At most DEPOSIT_SEARCH_MAX_CANDIDATES of them are read, and only a transaction that executed the
 * prepared calls (confirmed or reverted) is recorded on the attempt stream and claimed: non-matches leave no trace.
 * A provider that finds a leg by request id is asked too (how a native send to a solver, which emits no event, is
 * found). The whole run stays within DEPOSIT_SEARCH_MAX_RPC_CALLS; any failure throws, and the caller backs off.
 * A transaction another open attempt of the wallet could own too is claimed and recorded for none (ADR 0009):
 * `ambiguous` names it and those attempts, and it does not count as found; the partner's report decides it.
 */
export async function searchDeposits(
  deps: TrackerDeps,
  record: AttemptRecord,
  state: TrackingState,
  now: number,
): Promise<{
  record: AttemptRecord;
  state: TrackingState;
  found: boolean;
  ambiguous: { chainId: number; txHash: string; rivals: string[] }[];
}> {
  const ambiguous: { chainId: number; txHash: string; rivals: string[] }[] = [];
  let current = record;
  let tracking = state;
  const { prepared } = record;
  const budget = { left: DEPOSIT_SEARCH_MAX_RPC_CALLS };
  const wallet = prepared.wallet as Address;
  for (const action of prepared.chainActions) {
    if (!deps.chains.has(action.chainId)) continue;
    const client = budgeted(deps.chains.client(action.chainId), budget);
    const calls = action.calls ?? action.transactions ?? [];
    const candidates = await candidateTransactions(client, wallet, prepared.preparedAt, calls);
    for (const txHash of candidates.slice(0, DEPOSIT_SEARCH_MAX_CANDIDATES)) {
      let observed;
      try {
        observed = await observeSourceTransaction(client, {
          chainId: action.chainId,
          txHash,
          wallet,
          preparedCalls: calls,
        });
      } catch (err) {
        if (err instanceof ChainRpcError && err.cause instanceof DepositSearchBudgetError) throw err.cause;
        throw err;
      }
      if (observed.outcome !== 'confirmed' && observed.outcome !== 'reverted') continue; // not recorded
      const read = await readSourceStep(deps, current, tracking, {
        chainId: action.chainId,
        txHash,
        now,
        observed,
      });
      ({ record: current, state: tracking } = read);
      if (read.ambiguous) ambiguous.push({ chainId: action.chainId, txHash, rivals: read.ambiguous });
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
  return { record: current, state: tracking, found, ambiguous };
}

interface Call {
  to: string;
  data: string;
  value: string | bigint;
}

/** A log as far as the search needs it (viem's decoded logs and the node's raw ones alike). */
interface Hit {
  transactionHash: Hash | null;
  blockNumber: bigint | Hex | null;
}

/** The client with every request counted against the run's budget (a request over it is never sent). */
function budgeted(client: Client, budget: { left: number }): Client {
  return {
    ...client,
    request: ((args: Parameters<Client['request']>[0], options?: Parameters<Client['request']>[1]) => {
      if (budget.left <= 0) throw new DepositSearchBudgetError();
      budget.left--;
      return client.request(args, options);
    }) as Client['request'],
  };
}

/** The counterparties a prepared ERC-20 call names: an approve's spender, a transfer's recipient. */
function counterparty(call: Call): Address | null {
  try {
    const { functionName, args } = decodeFunctionData({ abi: erc20Abi, data: call.data as `0x${string}` });
    if (functionName === 'approve' || functionName === 'transfer') return args[0];
    if (functionName === 'transferFrom') return args[1];
  } catch {
    // not an ERC-20 call
  }
  return null;
}

/**
 * Hashes of the wallet's transactions since prepare that could be the prepared calls' execution, oldest first,
 * from log queries filtered by emitter and topics over at most DEPOSIT_SEARCH_MAX_BLOCKS blocks.
 */
async function candidateTransactions(
  client: Client,
  wallet: Address,
  preparedAt: number,
  calls: readonly Call[],
): Promise<Hash[]> {
  try {
    const addresses = (list: (string | null)[]): Address[] => [
      ...new Set(
        list.filter((a): a is string => a !== null && isAddress(a)).map((a) => a.toLowerCase() as Address),
      ),
    ];
    const targets = addresses(calls.map((c) => c.to));
    const nativeTargets = addresses(calls.filter((c) => BigInt(c.value) > 0n).map((c) => c.to));
    const spenders = addresses(calls.map(counterparty));
    const counterparties = addresses([...spenders, ...targets]);
    if (targets.length === 0) return [];
    const latest = await getBlockNumber(client);
    const floor = latest > DEPOSIT_SEARCH_MAX_BLOCKS ? latest - DEPOSIT_SEARCH_MAX_BLOCKS : 0n;
    const fromBlock = await blockAt(client, preparedAt - SOURCE_TX_CLOCK_SKEW_MS, floor, latest);
    const logs: Hit[] = [];
    for (let from = fromBlock; from <= latest; from += DEPOSIT_SEARCH_LOGS_RANGE) {
      const to =
        from + DEPOSIT_SEARCH_LOGS_RANGE - 1n < latest ? from + DEPOSIT_SEARCH_LOGS_RANGE - 1n : latest;
      logs.push(
        ...(await depositLogs(
          client,
          wallet,
          { targets, nativeTargets, spenders, counterparties },
          from,
          to,
        )),
      );
    }
    const ordered = logs
      .filter((l) => l.transactionHash !== null)
      .sort((a, b) => Number(BigInt(a.blockNumber ?? 0) - BigInt(b.blockNumber ?? 0)));
    return [...new Set(ordered.map((l) => l.transactionHash!))];
  } catch (err) {
    if (err instanceof DepositSearchBudgetError) throw err;
    throw new ChainRpcError(client, 'searching the wallet transactions', err);
  }
}

/** The log entries in blocks [fromBlock, toBlock] that could be the prepared calls' execution by `wallet`. */
async function depositLogs(
  client: Client,
  wallet: Address,
  named: { targets: Address[]; nativeTargets: Address[]; spenders: Address[]; counterparties: Address[] },
  fromBlock: bigint,
  toBlock: bigint,
): Promise<Hit[]> {
  const { targets, nativeTargets, spenders, counterparties } = named;
  const range = { fromBlock, toBlock };
  const logs: Hit[] = [
    ...(await getLogs(client, {
      address: targets,
      event: TRANSFER,
      args: { from: wallet, to: counterparties },
      ...range,
    })),
    ...(spenders.length === 0
      ? []
      : await getLogs(client, {
          address: targets,
          event: APPROVAL,
          args: { owner: wallet, spender: spenders },
          ...range,
        })),
  ];
  // Native value: the target's own events that name the wallet in an indexed topic (depositor, sender).
  const walletTopic = pad(wallet);
  for (let position = 1; nativeTargets.length > 0 && position <= 3; position++) {
    const topics: (Hex | null)[] = [null, null, null, null].slice(0, position + 1);
    topics[position] = walletTopic;
    logs.push(
      ...(await client.request<{
        Method: 'eth_getLogs';
        Parameters: [{ address: Address[]; topics: (Hex | null)[]; fromBlock: Hex; toBlock: Hex }];
        ReturnType: Hit[];
      }>({
        method: 'eth_getLogs',
        params: [{ address: nativeTargets, topics, fromBlock: toHex(fromBlock), toBlock: toHex(toBlock) }],
      })),
    );
  }
  return logs;
}

/** The last block in [low, high] stamped at or before `timeMs` (binary search over block timestamps). */
async function blockAt(client: Client, timeMs: number, low: bigint, high: bigint): Promise<bigint> {
  const target = BigInt(Math.floor(timeMs / 1000));
  while (low < high) {
    const mid = (low + high + 1n) / 2n;
    const block = await getBlock(client, { blockNumber: mid });
    if (block.timestamp <= target) low = mid;
    else high = mid - 1n;
  }
  return low;
}
