import { type ChainRegistry } from '@svc/chains';
import { type AttemptSnapshot } from '@svc/contract';
import { attemptSnapshot, type AttemptRecord, type ChainNames } from '@svc/domain';
import { type EventStore } from '@svc/event-store';
import { AttemptStatusService } from '@svc/settlement';
import { type Difference, jsonDifferences } from './json-differences';

export interface SnapshotCheck {
  /** The snapshot of the attempt folded from the events the audit read. */
  snapshot: AttemptSnapshot;
  /** What `GET /attempts/{id}/status` answers: the service's own status use case run on the same store. */
  served: unknown;
  differences: Difference[];
}

/**
 * Folds the snapshot from the attempt the audit read, then runs the service's status use case
 * (AttemptStatusService, which the gateway's GET /attempts/{id}/status reaches over the bus) on the same store for the
 * attempt's partner, and names every difference between the two. Chain names come from the same registry.
 */
export async function checkSnapshot(
  store: EventStore,
  chains: ChainRegistry,
  record: AttemptRecord,
): Promise<SnapshotCheck> {
  const snapshot = attemptSnapshot(record, chainNames(chains));
  const { attemptId, partnerId } = record.prepared;
  const reply = await new AttemptStatusService(store, chains).status({ partnerId, attemptId });
  const served = reply.ok ? reply.body : { error: reply.code, message: reply.message };
  return { snapshot, served, differences: jsonDifferences(snapshot, served) };
}

/** The names the status use case gives chains (configured name, else `chain <id>`). */
function chainNames(chains: ChainRegistry): ChainNames {
  return { chainName: (id) => (chains.has(id) ? chains.config(id).name : `chain ${id}`) };
}
