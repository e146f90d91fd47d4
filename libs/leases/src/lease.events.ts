import { storedEventShapes } from '@svc/contract';

/** A shard's lease was taken: free, expired, or never held. Times are epoch ms on the writer's clock. */
export interface LeaseAcquiredData {
  owner: string;
  until: number;
  at: number;
}

/** The holder extended its own lease. */
export interface LeaseRenewedData {
  owner: string;
  until: number;
  at: number;
}

/** The holder handed the shard back before its lease ran out (rebalancing or a graceful stop). */
export interface LeaseReleasedData {
  owner: string;
  at: number;
}

type Event<Type extends string, Data> = { type: Type; data: Data };

/**
 * Events of `lease-<group>-<shard>`. Each one states the whole lease (who holds it until when, or nobody), so the
 * newest event alone is the state: the stream may be trimmed to its last few events.
 */
export type LeaseEvent =
  | Event<'LeaseAcquired', LeaseAcquiredData>
  | Event<'LeaseRenewed', LeaseRenewedData>
  | Event<'LeaseReleased', LeaseReleasedData>;

/** What a stored lease event must hold for evolveLease to fold it: a known type, plain data. */
export const leaseEventShapes = storedEventShapes<LeaseEvent>({
  LeaseAcquired: true,
  LeaseRenewed: true,
  LeaseReleased: true,
});

export const LEASE_EVENT_TYPES: ReadonlySet<string> = leaseEventShapes.knownEventTypes;
