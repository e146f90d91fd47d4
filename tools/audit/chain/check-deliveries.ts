import { type ChainRegistry } from '@svc/chains';
import {
  type AttemptRecord,
  claimOwner,
  fillClaimStreamId,
  type FlatSlice,
  flattenSlices,
  PER_DEPOSIT_FILLS_OWNER,
  type SliceProgress,
  sliceDeposit,
} from '@svc/domain';
import { type EventStore } from '@svc/event-store';
import { type ProviderAdapter } from '@svc/providers';
import { legDeposit, readLegFill, readSettledAmount, sliceProvider } from '@svc/settlement';
import { type Address, type Hash } from 'viem';
import { type ClaimRead, readClaim } from '../history/read-claims';
import { type ChainMismatch, guarded, type TxCheck, txCheck, unreachable, unverified } from './chain-check';

type Fact = Omit<ChainMismatch, 'chainId' | 'txHash' | 'role' | 'sliceId'>;

/** A fill transaction that could not be read as delivered: reverted, not found, or not mined yet. */
function undeliveredFact(reason: string): Fact {
  const onChain = reason === 'reverted' ? 'reverted' : reason === 'not_found' ? 'not found' : 'not mined';
  return { fact: reason === 'reverted' ? 'success' : 'mined', recorded: 'delivered', onChain };
}
type Ref = Pick<TxCheck, 'chainId' | 'txHash' | 'role' | 'sliceId'>;

/** What the delivery checks read: the chains, the providers' fill-record readers, the store (deposit claims). */
export interface DeliverySources {
  chains: ChainRegistry;
  /** The service's adapters, built from the same provider configuration (their fill-record readers only). */
  adapters: Readonly<Record<string, ProviderAdapter>>;
  store: EventStore;
}

/**
 * Reads every delivery a leg recorded again. A provider's fill is attributed as the tracker attributes it
 * (`readLegFill`: the provider's own record of this leg's deposit in the transaction, `attributeFill`): the recorded
 * amount must be this deposit's share, not the transaction's sum (a batched fill serves several deposits), the
 * recorded deposit key must be the one the chain gives, and the claim of that deposit (issue 24 item 1) must name
 * this leg. A no-op leg's own transfer must have moved exactly the recorded amount to the recipient
 * (readSettledAmount); a refund its recorded amount to the account it names.
 */
export async function checkDeliveries(
  sources: DeliverySources,
  record: AttemptRecord,
  claims: readonly ClaimRead[],
): Promise<TxCheck[]> {
  const { chains } = sources;
  const { recipient } = record.prepared;
  const checks: TxCheck[] = [];
  for (const flat of flattenSlices(record.prepared)) {
    const { legIndex, leg, slice } = flat;
    const progress = record.slices[legIndex];
    // A settled leg, or a failed one that still delivered something (below_minimum).
    const amount = progress.settledAmount;
    if (amount !== null) {
      const role = slice.noop ? ('transfer' as const) : ('fill' as const);
      const hash = progress.destinationTxHash;
      const ref = { chainId: leg.target.chainId, txHash: hash ?? '-', role, sliceId: slice.sliceId };
      if (hash === null) {
        checks.push(
          unverified(
            ref,
            slice.noop
              ? 'the tokens were already in the recipient wallet: the balance read then cannot be read again'
              : 'no fill transaction recorded',
          ),
        );
      } else if (slice.noop) {
        checks.push(
          await guarded(ref, () =>
            checkAmount(chains, ref, {
              token: leg.target.address,
              to: recipient,
              amount,
              basis: progress.amountBasis ?? 'exact',
              what: 'amount to recipient',
            }),
          ),
        );
      } else {
        checks.push(await guarded(ref, () => checkFill(sources, ref, { record, flat, progress, claims })));
      }
    }
    const refund = progress.refund;
    if (refund !== null && refund.txHash !== null && refund.chainId !== null) {
      const ref = {
        chainId: refund.chainId,
        txHash: refund.txHash,
        role: 'refund' as const,
        sliceId: slice.sliceId,
      };
      checks.push(
        refund.token === null || refund.to === null || refund.amount === null
          ? unverified(ref, 'the refund names no token, account or amount to check')
          : await guarded(ref, () =>
              checkAmount(chains, ref, {
                token: refund.token!,
                to: refund.to!,
                amount: refund.amount!,
                basis: refund.amountBasis ?? 'estimated',
                what: `refund amount to ${refund.to}`,
              }),
            ),
      );
    }
  }
  return checks;
}

/**
 * A provider's fill, read again with the tracker's own attribution and held to the leg's record: the amount, the
 * deposit key (LegSettled's; derived the same way for an earlier build's event without it), the token delivered,
 * and, for an exact amount, the claim.
 */
async function checkFill(
  sources: DeliverySources,
  ref: Ref,
  {
    record,
    flat,
    progress,
    claims,
  }: { record: AttemptRecord; flat: FlatSlice; progress: SliceProgress; claims: readonly ClaimRead[] },
): Promise<TxCheck> {
  const { chains } = sources;
  if (!chains.has(ref.chainId)) return unreachable(ref, `chain ${ref.chainId} is not in CHAINS_FILE`);
  const { leg, slice } = flat;
  const { recipient, attemptId } = record.prepared;
  const amount = progress.settledAmount!;
  const basis = progress.amountBasis ?? 'exact';
  const provider = sliceProvider(sources, slice);
  // The deposit as the tracker found it: the n-th of its provider's deposits in the leg's source transaction.
  const deposit =
    provider === null
      ? null
      : await legDeposit(
          { chains, receiptLogs: new Map() },
          provider.adapter,
          slice,
          sliceDeposit(record, slice.sliceId),
        );
  const found = await readLegFill(chains, {
    recipient,
    chainId: ref.chainId,
    token: leg.target.address,
    fillTxHash: ref.txHash,
    provider,
    deposit,
  });
  const recorded = `${amount} (${basis})`;
  const mismatches: Fact[] = [];
  const recordedKey = progress.depositKey ?? null;
  let derivedKey: string | null = null;
  if (found.kind === 'rejected') {
    mismatches.push({ fact: 'delivery of this deposit', recorded, onChain: found.reason });
  } else {
    // The leg settled on a record interchangeable with the first one the chain gives (CCTP V2 messages of one
    // content, the first claimed by another leg): that record's delivery is the one to check.
    const settledOn = found.alternatives?.find((a) => a.depositKey === recordedKey);
    const read = settledOn?.read ?? found.read;
    if (read.basis === 'chain_unreadable')
      return unreachable(ref, `chain ${ref.chainId} is not in CHAINS_FILE`);
    if (read.basis === 'unreadable') {
      if (read.reason === 'untraceable')
        return unverified(ref, 'native value moved by a contract: the node cannot trace it');
      mismatches.push(undeliveredFact(read.reason));
    } else {
      derivedKey = settledOn?.depositKey ?? found.depositKey;
      if (read.amount !== amount) {
        mismatches.push({ fact: 'amount to recipient', recorded, onChain: `${read.amount} (exact)` });
      }
      const target = leg.target.address.toLowerCase();
      const deliveredRecorded = (progress.deliveredToken ?? target).toLowerCase();
      const deliveredOnChain = (found.deliveredToken ?? target).toLowerCase();
      if (deliveredRecorded !== deliveredOnChain) {
        mismatches.push({ fact: 'token delivered', recorded: deliveredRecorded, onChain: deliveredOnChain });
      }
      if (recordedKey !== null && derivedKey !== null && recordedKey !== derivedKey) {
        mismatches.push({ fact: 'deposit', recorded: recordedKey, onChain: derivedKey });
      }
    }
  }
  // The claim: of the deposit the leg names (or, for an earlier build's event, the one the chain gives).
  const key = recordedKey ?? derivedKey;
  let claimNote = '';
  if (basis === 'exact') {
    const expected = claimOwner({ role: 'fill', attemptId, sliceId: slice.sliceId });
    const claim = await fillClaim(sources.store, claims, ref, key);
    if (claim.wholeTx === expected) {
      // An earlier build claimed the whole transaction for this leg: no other leg could claim a deposit in it since.
      claimNote = ', whole transaction claimed by this leg (a build before per-deposit claims)';
    } else if (claim.wholeTx === PER_DEPOSIT_FILLS_OWNER && key !== null) {
      if (claim.deposit === expected) claimNote = `, claimed per deposit ${key}`;
      else
        mismatches.push({
          fact: 'claim',
          recorded: expected,
          onChain: `store: ${claim.deposit ?? 'unclaimed'} (deposit ${key})`,
        });
    } else {
      mismatches.push({
        fact: 'claim',
        recorded: expected,
        onChain: `store: ${claim.wholeTx ?? 'unclaimed'}`,
      });
    }
  }
  const checked = `${amount} of ${leg.target.address} to ${recipient}, this deposit's share of the fill, success${claimNote}`;
  return txCheck(ref, checked, mismatches);
}

/** Who holds the fill transaction's own claim stream, and the claim of the deposit `key` (read when not yet read). */
async function fillClaim(
  store: EventStore,
  claims: readonly ClaimRead[],
  ref: Ref,
  key: string | null,
): Promise<{ wholeTx: string | null; deposit: string | null }> {
  const txHash = ref.txHash.toLowerCase();
  const find = (depositKey: string | null) =>
    claims.find((c) => c.chainId === ref.chainId && c.txHash === txHash && c.depositKey === depositKey);
  const wholeTx = find(null)?.owner ?? null;
  if (key === null || wholeTx !== PER_DEPOSIT_FILLS_OWNER) return { wholeTx, deposit: null };
  const deposit =
    find(key) ??
    (await readClaim(store, fillClaimStreamId(ref.chainId, txHash, key), {
      chainId: ref.chainId,
      txHash,
      depositKey: key,
    }));
  return { wholeTx, deposit: deposit.owner };
}

async function checkAmount(
  chains: ChainRegistry,
  ref: Ref,
  expected: { token: string; to: string; amount: string; basis: string; what: string },
): Promise<TxCheck> {
  if (!chains.has(ref.chainId)) return unreachable(ref, `chain ${ref.chainId} is not in CHAINS_FILE`);
  const read = await readSettledAmount(chains.client(ref.chainId), {
    fillTxHash: ref.txHash as Hash,
    recipient: expected.to as Address,
    token: expected.token as Address,
  });
  const mismatches: Fact[] = [];
  const recorded = `${expected.amount} (${expected.basis})`;
  if (read.basis === 'unreadable') {
    if (read.reason === 'untraceable')
      return unverified(ref, 'native value moved by a contract: the node cannot trace it');
    mismatches.push(undeliveredFact(read.reason));
  } else if (read.amount.toString() !== expected.amount) {
    mismatches.push({ fact: expected.what, recorded, onChain: `${read.amount} (exact)` });
  }
  const checked = `${expected.amount} of ${expected.token} to ${expected.to}, success`;
  return txCheck(ref, checked, mismatches);
}
