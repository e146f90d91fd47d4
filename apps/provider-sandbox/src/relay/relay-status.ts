import { type TransferStatus } from '../ledger/transfer-record';

export type RelayStatus = 'waiting' | 'pending' | 'delayed' | 'submitted' | 'success' | 'refund' | 'failure';

/**
 * Relay's status vocabulary (reference §1.4); no transfer yet means the deposit is not indexed: `waiting`. A
 * refund after a failure reads `pending` again, as relay-kit's websocketHandlers.ts describes the refund flow:
 * "pending -> failure -> pending -> refund". `delayed` is the status doc's "destination fill delayed".
 */
export function relayStatus(status: TransferStatus | undefined): RelayStatus {
  switch (status) {
    case undefined:
      return 'waiting';
    case 'pending':
    case 'refunding':
      return 'pending';
    case 'delayed':
      return 'delayed';
    case 'filling':
      return 'submitted';
    case 'filled':
      return 'success';
    case 'refunded':
      return 'refund';
    case 'failed':
      return 'failure';
  }
}
