import { type AttemptRecord } from '@svc/domain';
import { type RecordedEvent } from '@svc/event-store';
import { type ClaimRead } from '../history/read-claims';
import { type ChainMismatch, type TxCheck } from './chain-check';
import { checkDeliveries, type DeliverySources } from './check-deliveries';
import { checkSourceTransactions } from './check-source-transactions';

export interface ChainVerification {
  checks: TxCheck[];
  mismatches: ChainMismatch[];
}

/** Every source transaction and delivery the attempt relies on, read again from the chains and held to its facts. */
export async function verifyOnChain(
  sources: DeliverySources,
  attempt: { record: AttemptRecord; attemptEvents: readonly RecordedEvent[]; claims: readonly ClaimRead[] },
): Promise<ChainVerification> {
  const checks = [
    ...(await checkSourceTransactions(sources.chains, attempt.record, attempt.attemptEvents, attempt.claims)),
    ...(await checkDeliveries(sources, attempt.record, attempt.claims)),
  ];
  return { checks, mismatches: checks.flatMap((c) => c.mismatches) };
}
