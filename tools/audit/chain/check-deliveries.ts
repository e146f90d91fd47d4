import { type ChainRegistry } from '@svc/chains';
import { type AttemptRecord, claimOwner, flattenSlices } from '@svc/domain';
import { readSettledAmount } from '@svc/settlement';
import { type Address, type Hash } from 'viem';
import { type ClaimRead } from '../history/read-claims';
import { type ChainMismatch, guarded, type TxCheck, txCheck, unreachable, unverified } from './chain-check';

type Fact = Omit<ChainMismatch, 'chainId' | 'txHash' | 'role' | 'sliceId'>;

/**
 * Reads every delivery a leg recorded again with the tracker's own readSettledAmount: a fill (or a no-op's transfer)
 * must be a successful transaction that moved exactly the recorded amount of the target token to the recipient, and
 * a provider's fill must be claimed by this leg; a refund must have moved its recorded amount to the account it names.
 */
export async function checkDeliveries(
  chains: ChainRegistry,
  record: AttemptRecord,
  claims: readonly ClaimRead[],
): Promise<TxCheck[]> {
  const { attemptId, recipient } = record.prepared;
  const checks: TxCheck[] = [];
  for (const { legIndex, leg, slice } of flattenSlices(record.prepared)) {
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
      } else {
        const claimed = claims.find(
          (c) => c.chainId === leg.target.chainId && c.txHash === hash.toLowerCase(),
        );
        const expectedOwner = slice.noop
          ? null
          : claimOwner({ role: 'fill', attemptId, sliceId: slice.sliceId });
        checks.push(
          await guarded(ref, () =>
            checkAmount(chains, ref, {
              token: leg.target.address,
              to: recipient,
              amount,
              basis: progress.amountBasis ?? 'exact',
              what: 'amount to recipient',
              claim:
                progress.amountBasis === 'exact'
                  ? { expected: expectedOwner, found: claimed?.owner ?? null }
                  : null,
            }),
          ),
        );
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
                claim: null,
              }),
            ),
      );
    }
  }
  return checks;
}

async function checkAmount(
  chains: ChainRegistry,
  ref: Pick<TxCheck, 'chainId' | 'txHash' | 'role' | 'sliceId'>,
  expected: {
    token: string;
    to: string;
    amount: string;
    basis: string;
    what: string;
    claim: { expected: string | null; found: string | null } | null;
  },
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
    const onChain =
      read.reason === 'reverted' ? 'reverted' : read.reason === 'not_found' ? 'not found' : 'not mined';
    mismatches.push({
      fact: read.reason === 'reverted' ? 'success' : 'mined',
      recorded: 'delivered',
      onChain,
    });
  } else if (read.amount.toString() !== expected.amount) {
    mismatches.push({ fact: expected.what, recorded, onChain: `${read.amount} (exact)` });
  }
  const { claim } = expected;
  if (claim !== null && claim.expected !== null && claim.found !== claim.expected)
    mismatches.push({
      fact: 'claim',
      recorded: claim.expected,
      onChain: `store: ${claim.found ?? 'unclaimed'}`,
    });
  const checked = `${expected.amount} of ${expected.token} to ${expected.to}, success${claim?.expected ? ', claim' : ''}`;
  return txCheck(ref, checked, mismatches);
}
