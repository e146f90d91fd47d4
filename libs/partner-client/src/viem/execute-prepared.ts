import {
  type Account,
  type Chain,
  type Hex,
  type PublicClient,
  publicActions,
  type Transport,
  type WalletClient,
} from 'viem';
import type {
  AttemptSnapshot,
  ChainAction,
  ChainCall,
  ChainResultInput,
  ChainTransaction,
  PrepareResponse,
  SubmittedRequest,
} from '../generated/api-types';
import { type IntentClient } from '../intent-client';
import { type PostOptions } from '../partner-client-options';

type AnyWalletClient = WalletClient<Transport, Chain | undefined, Account | undefined>;
type AnyPublicClient = Pick<PublicClient, 'waitForTransactionReceipt'>;

/** What executePrepared did, step by step (for a progress display or a log). */
export type ExecuteStep =
  | { kind: 'authorization_signed'; signature: Hex }
  | { kind: 'chain_switched'; chainId: number }
  | { kind: 'transaction_sent'; chainId: number; index: number; count: number; hash: Hex }
  | {
      kind: 'transaction_confirmed';
      chainId: number;
      index: number;
      count: number;
      hash: Hex;
      blockNumber: bigint;
    }
  | { kind: 'calls_sent'; chainId: number; bundleId: string; count: number }
  | { kind: 'calls_confirmed'; chainId: number; bundleId: string; txHashes: Hex[] }
  | { kind: 'submitted'; attemptId: string; status: string };

export interface ExecutePreparedOptions {
  /** When given, the evidence is reported (`submitted`) and the attempt returned. */
  client?: IntentClient;
  /** Options of the `submitted` call (e.g. an operationId to resume with after a crash). */
  submittedOptions?: PostOptions;
  onProgress?: (step: ExecuteStep) => void;
  /**
   * Where receipts are read: one client per chain id, or a function. Default: the wallet client itself (its
   * transport answers eth_getTransactionReceipt).
   */
  publicClient?: AnyPublicClient | Record<number, AnyPublicClient> | ((chainId: number) => AnyPublicClient);
  /** Polling interval for receipts and call bundles, ms. Default 500 (viem's default is 4 s). */
  pollingIntervalMs?: number;
  /** `never` sends a `calls` action's calls one by one even when the wallet offers atomic batches. */
  atomicBatches?: 'auto' | 'never';
}

export interface ExecutePreparedResult {
  signature: Hex;
  chainResults: ChainResultInput[];
  /** The body reported to (or to report to) `POST /attempts/{attemptId}/submitted`. */
  submittedBody: SubmittedRequest;
  /** The attempt after `submitted`, when a client was given. */
  attempt?: AttemptSnapshot;
}

/** A transaction of a chain action reverted: nothing after it was sent. */
export class ChainActionRevertedError extends Error {
  override readonly name = 'ChainActionRevertedError' as const;
  constructor(
    readonly chainId: number,
    readonly hash: Hex,
    readonly index: number,
    readonly count: number,
  ) {
    super(`transaction ${hash} (${index + 1} of ${count}) on chain ${chainId} reverted`);
  }
}

/**
 * The wallet's part of an attempt, with viem: signs the `walletAuthorization` typed data exactly as returned, then
 * runs each chain action in order on its chain (switching the wallet's chain, or taking that chain's wallet client
 * when `walletClient` is a function), waiting for each receipt and stopping at a revert. A `calls` action goes out
 * as one `wallet_sendCalls` batch (EIP-5792) when the wallet reports atomic support for the chain
 * (`getCapabilities`), else call by call. With `client`, the evidence is then reported (`submitted`).
 */
export async function executePrepared(
  walletClient: AnyWalletClient | ((chainId: number) => AnyWalletClient | Promise<AnyWalletClient>),
  prepared: PrepareResponse,
  options: ExecutePreparedOptions = {},
): Promise<ExecutePreparedResult> {
  const progress = options.onProgress ?? (() => undefined);
  const walletFor = async (chainId: number) =>
    typeof walletClient === 'function' ? walletClient(chainId) : walletClient;
  const authorization = prepared.walletAuthorization;
  if (!authorization) throw new Error(`attempt ${prepared.attemptId} carries no walletAuthorization to sign`);

  const firstWallet = await walletFor(prepared.chainActions[0]?.chainId ?? 0);
  const signature = await firstWallet.signTypedData({
    account: accountOf(firstWallet),
    domain: authorization.domain,
    types: authorization.types,
    primaryType: authorization.primaryType,
    message: authorization.message,
  } as unknown as Parameters<AnyWalletClient['signTypedData']>[0]);
  progress({ kind: 'authorization_signed', signature });

  const chainResults: ChainResultInput[] = [];
  for (const action of prepared.chainActions) {
    const wallet = await walletFor(action.chainId);
    if (typeof walletClient !== 'function' && (await wallet.getChainId()) !== action.chainId) {
      await wallet.switchChain({ id: action.chainId });
      progress({ kind: 'chain_switched', chainId: action.chainId });
    }
    const reader = readerFor(options, wallet, action.chainId);
    if (
      action.calls &&
      options.atomicBatches !== 'never' &&
      (await supportsAtomicBatch(wallet, action.chainId))
    ) {
      chainResults.push(await sendBatch(wallet, action, action.calls, options, progress));
    } else {
      const txs: (ChainCall | ChainTransaction)[] = action.transactions ?? action.calls ?? [];
      chainResults.push({
        chainId: action.chainId,
        txHashes: await sendInOrder(wallet, reader, action, txs, progress),
      });
    }
  }

  const submittedBody: SubmittedRequest = { chainResults, walletAuthorization: { signature } };
  if (!options.client) return { signature, chainResults, submittedBody };
  const attempt = await options.client.submitted(prepared.attemptId, submittedBody, options.submittedOptions);
  progress({ kind: 'submitted', attemptId: prepared.attemptId, status: attempt.status });
  return { signature, chainResults, submittedBody, attempt };
}

/**
 * Whether the wallet reports atomic batches for `chainId` (EIP-5792 `wallet_getCapabilities`): `atomic.status`
 * `supported` or `ready`, or the older `atomicBatch.supported: true`, for the chain or for every chain (`0x0`). A
 * wallet that does not answer the method (a local account on a plain node) has none.
 */
export async function supportsAtomicBatch(wallet: AnyWalletClient, chainId: number): Promise<boolean> {
  let capabilities: unknown;
  try {
    capabilities = await wallet.getCapabilities({ account: accountOf(wallet) });
  } catch {
    return false;
  }
  return atomicIn(capabilities, chainId);
}

/** The decision over a `wallet_getCapabilities` answer (keys: chain ids as numbers or hex strings). */
export function atomicIn(capabilities: unknown, chainId: number): boolean {
  if (typeof capabilities !== 'object' || capabilities === null) return false;
  const byChain = capabilities as Record<string, unknown>;
  for (const key of [String(chainId), `0x${chainId.toString(16)}`, '0', '0x0']) {
    const entry = byChain[key] as
      { atomic?: { status?: string }; atomicBatch?: { supported?: boolean } } | undefined;
    if (!entry) continue;
    if (entry.atomic?.status === 'supported' || entry.atomic?.status === 'ready') return true;
    if (entry.atomicBatch?.supported === true) return true;
  }
  return false;
}

async function sendInOrder(
  wallet: AnyWalletClient,
  reader: AnyPublicClient,
  action: ChainAction,
  txs: readonly (ChainCall | ChainTransaction)[],
  progress: (step: ExecuteStep) => void,
): Promise<Hex[]> {
  const hashes: Hex[] = [];
  for (const [index, tx] of txs.entries()) {
    const gas = tx.gas && BigInt(tx.gas) > 0n ? BigInt(tx.gas) : undefined;
    const hash = await wallet.sendTransaction({
      account: accountOf(wallet),
      chain: null,
      to: tx.to as Hex,
      data: tx.data as Hex,
      value: BigInt(tx.value),
      ...(gas === undefined ? {} : { gas }),
    });
    progress({ kind: 'transaction_sent', chainId: action.chainId, index, count: txs.length, hash });
    const receipt = await reader.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success')
      throw new ChainActionRevertedError(action.chainId, hash, index, txs.length);
    hashes.push(hash);
    progress({
      kind: 'transaction_confirmed',
      chainId: action.chainId,
      index,
      count: txs.length,
      hash,
      blockNumber: receipt.blockNumber,
    });
  }
  return hashes;
}

async function sendBatch(
  wallet: AnyWalletClient,
  action: ChainAction,
  calls: readonly ChainCall[],
  options: ExecutePreparedOptions,
  progress: (step: ExecuteStep) => void,
): Promise<ChainResultInput> {
  const { id } = await wallet.sendCalls({
    account: accountOf(wallet),
    // The action's chain (the client's own may be another one): the batch names it as its chainId.
    chain: wallet.chain?.id === action.chainId ? wallet.chain : { id: action.chainId },
    forceAtomic: true,
    calls: calls.map((c) => ({ to: c.to as Hex, data: c.data as Hex, value: BigInt(c.value) })),
  } as unknown as Parameters<AnyWalletClient['sendCalls']>[0]);
  progress({ kind: 'calls_sent', chainId: action.chainId, bundleId: id, count: calls.length });
  const status = await wallet.waitForCallsStatus({ id, pollingInterval: options.pollingIntervalMs ?? 500 });
  const txHashes = [...new Set((status.receipts ?? []).map((r) => r.transactionHash))];
  const reverted = (status.receipts ?? []).find((r) => r.status !== 'success');
  if (status.status !== 'success' || reverted) {
    throw new ChainActionRevertedError(
      action.chainId,
      reverted?.transactionHash ?? (id as Hex),
      0,
      calls.length,
    );
  }
  progress({ kind: 'calls_confirmed', chainId: action.chainId, bundleId: id, txHashes });
  return { chainId: action.chainId, bundleId: id, txHashes };
}

function readerFor(
  options: ExecutePreparedOptions,
  wallet: AnyWalletClient,
  chainId: number,
): AnyPublicClient {
  const given = options.publicClient;
  if (typeof given === 'function') return given(chainId);
  if (given && 'waitForTransactionReceipt' in given) return given;
  if (given?.[chainId]) return given[chainId];
  const reader = wallet.extend(publicActions);
  const interval = options.pollingIntervalMs ?? 500;
  return {
    waitForTransactionReceipt: (args) =>
      reader.waitForTransactionReceipt({ pollingInterval: interval, ...args }),
  };
}

function accountOf(wallet: AnyWalletClient): Account {
  if (!wallet.account) throw new Error('the wallet client has no account: create it with one');
  return wallet.account;
}
