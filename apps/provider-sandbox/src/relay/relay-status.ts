import { type TransferStatus } from '../ledger/transfer-record';

export type RelayStatus = 'waiting' | 'pending' | 'submitted' | 'success' | 'refund' | 'failure';

/** Relay's status vocabulary (reference §1.4); no transfer yet means the deposit is not indexed: `waiting`. */
export function relayStatus(status: TransferStatus | undefined): RelayStatus {
  switch (status) {
    case undefined:
      return 'waiting';
    case 'pending':
    case 'refunding':
      return 'pending';
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
