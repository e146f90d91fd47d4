import { type SourceGasTransactionKind } from '@svc/contract';
import { type Hex } from 'viem';
import { decodeApprove } from '../chain-actions/approval-needs';
import { type DraftCall } from '../chain-actions/draft-call';

/** What a planned call is in a quote's source gas: an approval to zero is the USDT-style reset. */
export function transactionKind(call: DraftCall, provider: string): SourceGasTransactionKind {
  if (call.kind === 'deposit') return 'deposit';
  if (call.kind === 'approve')
    return decodeApprove(call.data as Hex)?.amount === 0n ? 'approve_reset' : 'approve';
  return provider === 'direct' ? 'transfer' : 'other';
}
