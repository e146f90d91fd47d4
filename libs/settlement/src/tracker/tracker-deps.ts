import { type ChainRegistry } from '@svc/chains';
import { type TrackingPolicy } from '@svc/domain';
import { type EventStore } from '@svc/event-store';
import { type ProviderAdapter, type ReceiptLog } from '@svc/providers';

/** What one attempt's tracking run needs: the I/O at the edge of the tracking workflow. */
export interface TrackerDeps {
  store: EventStore;
  chains: ChainRegistry;
  adapters: Readonly<Record<string, ProviderAdapter>>;
  policy: TrackingPolicy;
  /** A provider status call gives up after this. */
  providerTimeoutMs: number;
  /** Source receipts' logs by `<chainId>:<hash>`, kept by the caller between runs (deposit refs of a batch). */
  receiptLogs: Map<string, readonly ReceiptLog[]>;
  /**
   * The attempt's partner accepts a fill on a chain the service cannot read on its provider's word
   * (PartnerConfig.acceptEstimatedSettlement). Absent: it does not, and such a leg never settles.
   */
  acceptsEstimated?: boolean;
  /**
   * The tracker's ConfirmationWatcher checks the legs awaiting confirmations when a head reaches their depth (ADR 0008
   * "Confirmation is block-driven"): a run leaves them to it. Absent (a run on its own, as in tests): each run reads
   * them again.
   */
  confirmationsWatched?: boolean;
}
