import { type RelayTransfer, type TransferStatus } from '../ledger/transfer-record';

export type RelayStatus =
  'waiting' | 'pending' | 'delayed' | 'submitted' | 'success' | 'refund' | 'fallback' | 'failure';

/**
 * A transfer's status as Relay reports it: the 913 scenario's refund reads `fallback`, which Relay documents with
 * a failReason like a refund (relay-docs changelog.mdx 2026-08-07, api_guides/webhooks.mdx) and relay-kit's
 * polling ends on as "Refunded" (packages/sdk/src/utils/transaction.ts:182).
 */
export function relayTransferStatus(transfer: RelayTransfer | undefined): RelayStatus {
  const status = relayStatus(transfer?.status);
  return status === 'refund' && transfer?.scenario === 'fallback' ? 'fallback' : status;
}

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
