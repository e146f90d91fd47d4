import { type ChainRegistry, readTransaction } from '@svc/chains';
import { type AttemptEvent, type AttemptRecord, claimOwner, minedAfterPrepare } from '@svc/domain';
import { classifyEvent, type RecordedEvent } from '@svc/event-store';
import { observeSourceTransaction, type SourceTransactionObservation } from '@svc/settlement';
import { type Address, type Hash } from 'viem';
import { type ClaimRead } from '../history/read-claims';
import { auditReads } from '../history/stored-events';
import { type ChainMismatch, guarded, type TxCheck, txCheck, unreachable } from './chain-check';

type Fact = Omit<ChainMismatch, 'chainId' | 'txHash' | 'role' | 'sliceId'>;
/** The events that classify a source transaction. */
type Classification = Extract<
  AttemptEvent,
  {
    type:
      | 'SourceTransactionConfirmed'
      | 'SourceTransactionReverted'
      | 'SourceTransactionMismatched'
      | 'SourceTransactionUnknown';
  }
>;
type Recorded = Classification & { chainId: number; txHash: string };
/** A hash the partner reported that the service never classified. */
type Reported = { type: null; chainId: number; txHash: string };

const CLASSIFIED = new Set<string>([
  'SourceTransactionConfirmed',
  'SourceTransactionReverted',
  'SourceTransactionMismatched',
  'SourceTransactionUnknown',
] satisfies Classification['type'][]);
const isClassification = (event: AttemptEvent): event is Classification => CLASSIFIED.has(event.type);

/**
 * Reads every source transaction again with the tracker's own observeSourceTransaction (sender, prepared calls
 * matched, success, block) and holds it against what the attempt recorded, claim included. Hashes reported but never
 * classified are read too, and what the chain says of them is shown as information.
 */
export async function checkSourceTransactions(
  chains: ChainRegistry,
  record: AttemptRecord,
  attemptEvents: readonly RecordedEvent[],
  claims: readonly ClaimRead[],
): Promise<TxCheck[]> {
  // Read through the attempt decider's guards, as the fold the record came from read them.
  const recorded = attemptEvents.flatMap((e): Recorded[] => {
    const read = classifyEvent(auditReads.attempt, e);
    if (read.kind !== 'event' || !isClassification(read.event)) return [];
    const { chainId, txHash } = read.event.data;
    return [{ ...read.event, chainId, txHash }];
  });
  const classified = new Set(recorded.map((r) => `${r.chainId}:${r.txHash.toLowerCase()}`));
  const reportedOnly = record.evidence.flatMap((e) =>
    e.txHashes
      .filter((h) => !classified.has(`${e.chainId}:${h.toLowerCase()}`))
      .map((txHash): Reported => ({ type: null, chainId: e.chainId, txHash })),
  );
  const checks: TxCheck[] = [];
  for (const tx of [...recorded, ...reportedOnly]) {
    const ref = { chainId: tx.chainId, txHash: tx.txHash, role: 'source' as const, sliceId: null };
    if (!chains.has(tx.chainId)) {
      checks.push(unreachable(ref, `chain ${tx.chainId} is not in CHAINS_FILE`));
      continue;
    }
    const owner =
      claims.find(
        (c) => c.chainId === tx.chainId && c.txHash === tx.txHash.toLowerCase() && c.depositKey === null,
      )?.owner ?? null;
    checks.push(
      await guarded(ref, async () => {
        const seen = await observe(chains, record, tx);
        if (tx.type === null) {
          const note = `reported, never classified by the service; on chain: ${describe(seen)}`;
          return { ...ref, outcome: 'info', note, mismatches: [] };
        }
        const facts = await judge(chains, record, tx, seen, owner);
        return txCheck(ref, facts.checked, facts.mismatches);
      }),
    );
  }
  return checks;
}

function observe(chains: ChainRegistry, record: AttemptRecord, tx: { chainId: number; txHash: string }) {
  const action = record.prepared.chainActions.find((a) => a.chainId === tx.chainId);
  return observeSourceTransaction(chains.client(tx.chainId), {
    chainId: tx.chainId,
    txHash: tx.txHash as Hash,
    wallet: record.prepared.wallet as Address,
    preparedCalls: action?.calls ?? action?.transactions ?? [],
  });
}

async function judge(
  chains: ChainRegistry,
  record: AttemptRecord,
  tx: Recorded,
  seen: SourceTransactionObservation,
  owner: string | null,
): Promise<{ checked: string; mismatches: Fact[] }> {
  const { prepared } = record;
  const expectedOwner = claimOwner({ role: 'source', attemptId: prepared.attemptId });
  switch (tx.type) {
    case 'SourceTransactionConfirmed': {
      if (seen.outcome !== 'confirmed')
        return { checked: '', mismatches: [await outcomeFact(chains, record, tx, 'confirmed', seen)] };
      const callIds = tx.data.callIds.join(',');
      const mismatches: Fact[] = [];
      if (seen.callIds.join(',') !== callIds)
        mismatches.push({ fact: 'calls matched', recorded: callIds, onChain: seen.callIds.join(',') });
      if (seen.blockNumber.toString() !== tx.data.blockNumber)
        mismatches.push({
          fact: 'block',
          recorded: String(tx.data.blockNumber),
          onChain: seen.blockNumber.toString(),
        });
      if (!minedAfterPrepare(prepared, seen.minedAt))
        mismatches.push({
          fact: 'mined after prepare',
          recorded: 'yes',
          onChain: `mined ${iso(seen.minedAt)}, prepared ${iso(prepared.preparedAt)}`,
        });
      if (owner !== expectedOwner)
        mismatches.push({
          fact: 'claim',
          recorded: expectedOwner,
          onChain: `store: ${owner ?? 'unclaimed'}`,
        });
      return {
        checked: `sender ${prepared.wallet}, calls ${callIds}, block ${seen.blockNumber}, success, claim`,
        mismatches,
      };
    }
    case 'SourceTransactionReverted':
      return seen.outcome === 'reverted'
        ? { checked: `sender ${prepared.wallet}, calls ${seen.callIds.join(',')}, reverted`, mismatches: [] }
        : { checked: '', mismatches: [await outcomeFact(chains, record, tx, 'reverted', seen)] };
    case 'SourceTransactionMismatched': {
      const { reason } = tx.data;
      if (reason === 'mined before the attempt was prepared') {
        const minedAt = seen.outcome === 'confirmed' || seen.outcome === 'reverted' ? seen.minedAt : null;
        return minedAt !== null && !minedAfterPrepare(prepared, minedAt)
          ? { checked: `mined ${iso(minedAt)}, before the attempt was prepared`, mismatches: [] }
          : {
              checked: '',
              mismatches: [{ fact: 'mined before prepare', recorded: reason, onChain: describe(seen) }],
            };
      }
      if (reason === 'already the evidence of another attempt')
        return owner !== null && owner !== expectedOwner
          ? { checked: `claimed by ${owner}`, mismatches: [] }
          : {
              checked: '',
              mismatches: [{ fact: 'claim', recorded: reason, onChain: `store: ${owner ?? 'unclaimed'}` }],
            };
      return seen.outcome === 'mismatched'
        ? { checked: `not the wallet's execution of prepared calls: ${seen.reason}`, mismatches: [] }
        : { checked: '', mismatches: [{ fact: 'calls matched', recorded: reason, onChain: describe(seen) }] };
    }
    case 'SourceTransactionUnknown':
      return { checked: `recorded unknown; on chain now: ${describe(seen)}`, mismatches: [] };
  }
}

/** The fact a recorded outcome is contradicted on, with what the chain shows instead. */
async function outcomeFact(
  chains: ChainRegistry,
  record: AttemptRecord,
  tx: Recorded,
  recorded: 'confirmed' | 'reverted',
  seen: SourceTransactionObservation,
): Promise<Fact> {
  switch (seen.outcome) {
    case 'confirmed':
    case 'reverted':
      return { fact: 'success', recorded, onChain: seen.outcome };
    case 'unknown':
    case 'pending':
      return {
        fact: 'mined',
        recorded: `mined, ${recorded}`,
        onChain: seen.outcome === 'unknown' ? 'not found' : 'not mined',
      };
    case 'mismatched': {
      if (seen.reason !== 'sent by another account')
        return { fact: 'calls matched', recorded: 'prepared calls', onChain: seen.reason };
      const sent = await readTransaction(chains.client(tx.chainId), { hash: tx.txHash as Hash });
      return { fact: 'sender', recorded: record.prepared.wallet, onChain: sent?.from ?? 'another account' };
    }
  }
}

function describe(seen: SourceTransactionObservation): string {
  switch (seen.outcome) {
    case 'confirmed':
      return `confirmed in block ${seen.blockNumber}, calls ${seen.callIds.join(',')}`;
    case 'reverted':
      return `reverted in block ${seen.blockNumber}`;
    case 'mismatched':
      return `not the wallet's execution of prepared calls (${seen.reason})`;
    case 'unknown':
      return 'not found';
    case 'pending':
      return 'not mined';
  }
}

const iso = (ms: number) => new Date(ms).toISOString();
