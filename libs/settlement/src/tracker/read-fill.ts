import {
  attributeFill,
  claimOwner,
  FALLBACK_DEPOSIT_KEY,
  type FillAttribution,
  type FillRead,
  type FillRecordFinding,
  interpretFill,
  type LegProgress,
} from '@svc/domain';
import {
  type DepositSelector,
  type FillRecord,
  type ProviderAdapter,
  type TrackingContext,
} from '@svc/providers';
import { type ChainRegistry } from '@svc/chains';
import { type Address, type Hash, zeroAddress } from 'viem';
import { claimFill } from '../claims/claim-fill';
import { type FillLogs, readFillLogs, tokenTransfers } from '../observe/read-fill-logs';
import { readWrappedPaidAsNative } from '../observe/read-wrapped-paid-as-native';
import { readDelivery } from './read-delivery';
import { type TrackerDeps } from './tracker-deps';

export interface ReadFillInput {
  attemptId: string;
  sliceId: string;
  recipient: string;
  chainId: number;
  token: string;
  fillTxHash: string | null;
  providerAmount: string | null;
  expectedOutputRaw: string;
  provider: { adapter: ProviderAdapter; context: TrackingContext } | null;
  deposit: DepositSelector | null;
  now: number;
}

/** Where a leg's fill is read: what `readLegFill` needs (no store: it claims nothing). */
export type LegFillQuery = Pick<ReadFillInput, 'recipient' | 'chainId' | 'token' | 'provider' | 'deposit'> & {
  fillTxHash: string;
};

/**
 * What the chain shows of this leg's own delivery in a fill transaction, before any claim:
 * - `rejected`: the transaction does not deliver this leg (the provider's records name other deposits, the record's
 *   amount did not reach the recipient, several transfers and no record);
 * - `read`: what reached the recipient (`FillRead`), with `depositKey`, the key its delivery is claimed under
 *   (null: nothing to claim, the node lags or nothing was delivered), `estimate` (an amount the provider's own record
 *   states, when the chain cannot be read) and `deliveredToken` (the native currency for a wrapped target paid
 *   unwrapped). `alternatives`: the deliveries of records interchangeable with this one for this leg (CCTP V2
 *   messages of one content, `FillRecord.interchangeable`), each with its own claim key, tried in order when the
 *   first is another leg's.
 */
export type LegFillFinding =
  | { kind: 'rejected'; reason: string }
  | {
      kind: 'read';
      read: FillRead;
      depositKey: string | null;
      estimate?: string;
      deliveredToken?: string;
      alternatives?: readonly { read: FillRead; depositKey: string }[];
    };

/**
 * What a fill the provider named means for this leg (issue 24 item 1): its delivery is located by the provider's
 * own record of this leg's deposit in the transaction (`ProviderAdapter.fillRecord`), its amount is that record's,
 * checked against the target token's transfers to the recipient (`attributeFill`), and the claim is keyed by
 * (chain, transaction, deposit) (`claimFill`), so the legs a batched fill serves each settle with their own amount
 * and a stranger's transfer in the same transaction counts for nobody. A native target is read as before (value to
 * the recipient), keyed by the record's deposit when there is one. A filled leg carries the deposit key it was
 * claimed under (LegSettled's `depositKey`).
 */
export async function readFill(deps: TrackerDeps, input: ReadFillInput): Promise<LegProgress | null> {
  const { fillTxHash } = input;
  /** `estimate`: the amount the provider's own fill record states on chain, the better estimate when unreadable. */
  const interpret = (read: FillRead, claimedElsewhere = false, estimate?: string) =>
    interpretFill({
      fillTxHash,
      read,
      claimedElsewhere,
      providerAmount: estimate ?? input.providerAmount,
      expectedOutputRaw: input.expectedOutputRaw,
      acceptEstimated: deps.acceptsEstimated === true,
    });
  if (fillTxHash === null) return interpret({ basis: 'unreadable', reason: 'not_found' });
  const found = await readLegFill(deps.chains, { ...input, fillTxHash });
  if (found.kind === 'rejected') {
    return { state: 'fill_rejected', destinationTxHash: fillTxHash, reason: found.reason };
  }
  let { depositKey, read } = found;
  let claimed = depositKey === null ? false : await claimedElsewhere(deps, input, depositKey);
  // Another leg holds this record: the first interchangeable one nobody else holds is this leg's (claimed here).
  for (const alternative of claimed ? (found.alternatives ?? []) : []) {
    if (await claimedElsewhere(deps, input, alternative.depositKey)) continue;
    ({ depositKey, read } = alternative);
    claimed = false;
    break;
  }
  const progress = interpret(read, claimed, found.estimate);
  if (progress?.state !== 'filled') return progress;
  return {
    ...progress,
    ...(found.deliveredToken !== undefined ? { deliveredToken: found.deliveredToken } : {}),
    ...(depositKey !== null ? { depositKey } : {}),
  };
}

/**
 * This leg's delivery in the fill, read from the chain as the tracker reads it (`readFill`, which then claims it),
 * and as the audit reads it again (tools/audit/chain/check-deliveries.ts): one attribution for both.
 */
export async function readLegFill(chains: ChainRegistry, input: LegFillQuery): Promise<LegFillFinding> {
  const read = (fill: FillRead, depositKey: string | null, estimate?: string): LegFillFinding => ({
    kind: 'read',
    read: fill,
    depositKey,
    ...(estimate !== undefined ? { estimate } : {}),
  });
  if (!chains.has(input.chainId)) return read({ basis: 'chain_unreadable' }, FALLBACK_DEPOSIT_KEY);
  const logs = await readFillLogs(chains.client(input.chainId), input.fillTxHash as Hash);
  if (logs.basis === 'unreadable') return read(logs, null);
  const native = input.token.toLowerCase() === zeroAddress;
  const record = findRecord(input, logs.fill);
  if (native) return readNativeFill(chains, input, record);
  const transfers = tokenTransfers(logs.fill.logs, input.token);
  if (!transfers.some((t) => t.to.toLowerCase() === input.recipient.toLowerCase())) {
    const asNative = await readWrappedAsNativeFill(chains, input, record);
    if (asNative !== undefined) return asNative;
  }
  const attribution: FillAttribution = attributeFill({
    record,
    transfers,
    recipient: input.recipient,
    token: input.token,
  });
  if (attribution.kind === 'rejected') return { kind: 'rejected', reason: attribution.reason };
  const exact: FillRead = { basis: 'exact', amount: attribution.amount };
  const depositKey = BigInt(attribution.amount) === 0n ? null : attribution.depositKey;
  const alternatives = interchangeableDeliveries(record, transfers, input);
  return { kind: 'read', read: exact, depositKey, ...(alternatives.length > 0 ? { alternatives } : {}) };
}

/** Each record interchangeable with this leg's, attributed as its own would be; those that deliver nothing left out. */
function interchangeableDeliveries(
  record: FillRecordFinding,
  transfers: ReturnType<typeof tokenTransfers>,
  input: LegFillQuery,
): { read: FillRead; depositKey: string }[] {
  if (record.kind !== 'found') return [];
  return (record.interchangeable ?? []).flatMap((other) => {
    const attribution = attributeFill({
      record: { kind: 'found', ...other },
      transfers,
      recipient: input.recipient,
      token: input.token,
    });
    return attribution.kind === 'attributed' && BigInt(attribution.amount) > 0n
      ? [
          {
            read: { basis: 'exact' as const, amount: attribution.amount },
            depositKey: attribution.depositKey,
          },
        ]
      : [];
  });
}

/** The adapter's record of this leg's deposit in the fill, as the domain's attribution reads it. */
function findRecord(input: LegFillQuery, fill: FillLogs): FillRecordFinding {
  const found: FillRecord | undefined = input.provider?.adapter.fillRecord?.(input.provider.context, {
    chainId: input.chainId,
    logs: fill.logs,
    tx: fill.tx,
    deposit: input.deposit,
    recipient: input.recipient as Address,
    token: input.token as Address,
  });
  return found === undefined ? { kind: 'none' } : fillRecordFinding(found);
}

/** An adapter's fill record as the domain's attribution reads it (amounts as decimal strings). */
export function fillRecordFinding(found: FillRecord): FillRecordFinding {
  if (found.kind !== 'found') return found;
  const { interchangeable, ...own } = found;
  return {
    ...own,
    amount: own.amount.toString(),
    ...(interchangeable && interchangeable.length > 0
      ? { interchangeable: interchangeable.map((r) => ({ ...r, amount: r.amount.toString() })) }
      : {}),
  };
}

/**
 * A native target: the value the recipient received (readSettledAmount's native path). With a record (Across pays
 * a WETH output as ETH), the record's amount when the value read covers it, claimed under its deposit; without
 * one, the value read, claimed as the transaction's sole delivery.
 */
async function readNativeFill(
  chains: ChainRegistry,
  input: LegFillQuery,
  record: FillRecordFinding,
): Promise<LegFillFinding> {
  if (record.kind === 'other_deposits') {
    return {
      kind: 'rejected',
      reason: "the fill transaction holds the provider's fill records of other deposits, none of this leg's",
    };
  }
  const read = await readDelivery(chains, {
    chainId: input.chainId,
    txHash: input.fillTxHash,
    to: input.recipient,
    token: zeroAddress,
  });
  const depositKey = record.kind === 'found' ? record.depositKey : FALLBACK_DEPOSIT_KEY;
  if (read.basis === 'exact') {
    if (BigInt(read.amount) === 0n) return { kind: 'read', read, depositKey: null };
    let amount = read.amount;
    if (record.kind === 'found' && record.recipient.toLowerCase() === input.recipient.toLowerCase()) {
      if (BigInt(read.amount) < BigInt(record.amount)) {
        return {
          kind: 'rejected',
          reason: `the provider's fill record of this deposit states ${record.amount} but only ${read.amount} reached the recipient`,
        };
      }
      amount = record.amount;
    }
    return { kind: 'read', read: { basis: 'exact', amount }, depositKey };
  }
  const unverifiable = read.basis === 'chain_unreadable' || read.reason === 'untraceable';
  if (!unverifiable) return { kind: 'read', read, depositKey: null };
  return withEstimate({ kind: 'read', read, depositKey }, recordEstimate(record, input));
}

function withEstimate(
  found: LegFillFinding & { kind: 'read' },
  estimate: string | undefined,
): LegFillFinding {
  return estimate === undefined ? found : { ...found, estimate };
}

/**
 * Without a trace, the native value a contract paid cannot be read (issue 24 N6): the estimate is then the amount
 * the provider's own fill record for this deposit states on chain (Across `FilledRelay.updatedOutputAmount`, emitted
 * by the allowlisted pool), when it pays this recipient, rather than the provider API's figure.
 */
function recordEstimate(record: FillRecordFinding, input: LegFillQuery): string | undefined {
  if (record.kind !== 'found') return undefined;
  return record.recipient.toLowerCase() === input.recipient.toLowerCase() ? record.amount : undefined;
}

/**
 * A wrapped-native target the recipient received none of, as a token (providers review N7): Across's SpokePool pays a
 * WETH output as ETH to an EOA or an EIP-7702 wallet (SpokePool.sol `_unwrapwrappedNativeTokenTo`). When the target
 * token was unwrapped in the fill and the recipient received native value (readWrappedPaidAsNative), the leg is
 * delivered in the native currency: the record's amount when the value covers it, claimed under its deposit; without
 * a record, the value read, as the transaction's sole delivery. undefined: not such a fill, read it as a token fill.
 */
async function readWrappedAsNativeFill(
  chains: ChainRegistry,
  input: LegFillQuery,
  record: FillRecordFinding,
): Promise<LegFillFinding | undefined> {
  if (record.kind === 'other_deposits') return undefined;
  const read = await readWrappedPaidAsNative(chains.client(input.chainId), {
    fillTxHash: input.fillTxHash as Hash,
    recipient: input.recipient as Address,
    token: input.token as Address,
  });
  if (read === null) return undefined;
  const depositKey = record.kind === 'found' ? record.depositKey : FALLBACK_DEPOSIT_KEY;
  if (read.basis === 'unreadable') {
    return read.reason === 'untraceable'
      ? withEstimate({ kind: 'read', read, depositKey }, recordEstimate(record, input))
      : undefined;
  }
  let amount = read.amount;
  if (record.kind === 'found' && record.recipient.toLowerCase() === input.recipient.toLowerCase()) {
    if (amount < BigInt(record.amount)) {
      return {
        kind: 'rejected',
        reason: `the provider's fill record of this deposit states ${record.amount} but only ${amount} reached the recipient, unwrapped`,
      };
    }
    amount = BigInt(record.amount);
  }
  return {
    kind: 'read',
    read: { basis: 'exact', amount: amount.toString() },
    depositKey,
    deliveredToken: zeroAddress,
  };
}

async function claimedElsewhere(
  deps: TrackerDeps,
  input: ReadFillInput,
  depositKey: string,
): Promise<boolean> {
  const claim = { role: 'fill' as const, attemptId: input.attemptId, sliceId: input.sliceId };
  const owner = await claimFill(deps.store, {
    chainId: input.chainId,
    txHash: input.fillTxHash!,
    depositKey,
    claim,
    at: input.now,
  });
  return owner !== claimOwner(claim);
}
