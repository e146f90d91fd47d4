import { type AttemptSnapshot, type StatusLeg } from '@svc/contract';
import { str, time } from './render';

/** The snapshot as lines: status, then each chain with its legs, then what reached the recipient. */
export function formatSnapshot(s: AttemptSnapshot): string[] {
  return [
    `  status ${s.status} (currentStatus ${s.currentStatus}); submittedAt ${time(s.submittedAt)}`,
    `  wallet ${s.walletAddress} → recipient ${s.recipient}`,
    ...s.perChainStatus.flatMap((c) => [
      `  chain ${c.chainId} (${c.provider}, ${c.submitMethod}): ${c.status}; txs ${c.txHashes.length === 0 ? '-' : c.txHashes.join(', ')}${c.bundleId ? `; bundle ${c.bundleId}` : ''}`,
      ...c.legs.map(formatLeg),
    ]),
    s.settledOutputs.length === 0
      ? '  settled outputs: none'
      : `  settled outputs: ${s.settledOutputs.map((o) => `${o.amount} ${o.symbol} on ${o.chainId} (${o.amountBasis}), tx ${o.txHash || '-'}`).join('; ')}`,
  ];
}

function formatLeg(l: StatusLeg): string {
  const amount =
    l.settledAmount === null
      ? ''
      : ` ${l.settledAmount} (${str(l.settledAmountBasis)}) of expected ${l.expectedOutputAmount}`;
  const error = l.errorCode === null ? '' : `; ${l.errorCode}: ${str(l.errorMessage)}`;
  const refund = l.refund
    ? `; refund ${str(l.refund.amount)} (${str(l.refund.amountBasis)}) to ${str(l.refund.to)}, tx ${str(l.refund.txHash)}`
    : '';
  return `    leg ${l.legIndex} ${l.outputTargetId} ${l.provider} chain ${l.sourceChainId} → ${l.outputSymbol}: ${l.status}${amount}; source tx ${str(l.sourceChainTxHash)}; fill ${str(l.destinationChainTxHash)}${error}${refund}`;
}
