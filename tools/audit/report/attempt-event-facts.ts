import { type AttemptPreparedData, type LegFailedData, type ReportedChainResult } from '@svc/domain';
import { str, time } from './render';

type Data = Record<string, unknown>;

/** The facts of an `attempt-<id>` event, or null for another stream's event. */
export function attemptEventFacts(type: string, d: Data): string | null {
  switch (type) {
    case 'AttemptPrepared':
      return prepared(d as unknown as AttemptPreparedData);
    case 'EvidenceReported': {
      const results = d.chainResults as ReportedChainResult[];
      const chains = results.map(
        (r) =>
          `chain ${r.chainId}: ${r.txHashes.length === 0 ? 'no tx' : r.txHashes.join(', ')}${r.bundleId ? `, bundle ${r.bundleId}` : ''}`,
      );
      return `${chains.join('; ')}; submittedAt ${time(d.submittedAt)}`;
    }
    case 'AuthorizationSigned':
      return `signed by ${str(d.signer)}`;
    case 'SourceTransactionConfirmed':
      return `chain ${str(d.chainId)} tx ${str(d.txHash)}: confirmed in block ${str(d.blockNumber)}, calls ${(d.callIds as string[]).join(',')}`;
    case 'SourceTransactionReverted':
      return `chain ${str(d.chainId)} tx ${str(d.txHash)}: reverted`;
    case 'SourceTransactionMismatched':
    case 'SourceTransactionUnknown':
      return `chain ${str(d.chainId)} tx ${str(d.txHash)}: ${str(d.reason)}`;
    case 'LegPending':
      return `${str(d.sliceId)} provider status ${str(d.providerStatus)}`;
    case 'LegFillRejected':
      return `${str(d.sliceId)} fill ${str(d.destinationTxHash)} rejected: ${str(d.reason)}`;
    case 'LegDelayed':
      return `${str(d.sliceId)} expected by ${time(d.expectedBy)}${d.explorerUrl ? `, ${str(d.explorerUrl)}` : ''}`;
    case 'LegSettled':
      return `${str(d.sliceId)} settled ${str(d.settledAmount)} (${str(d.amountBasis)}), fill ${str(d.destinationTxHash)}`;
    case 'LegFailed':
      return legFailed(d as unknown as LegFailedData);
    case 'AttemptFailed':
      return `${str(d.errorCode)}: ${str(d.errorMessage)}`;
    case 'AttemptWalletSubmitted':
    case 'AttemptProviderPending':
    case 'AttemptSettled':
    case 'AttemptExpired':
      return `at ${time(d.at)}`;
    default:
      return null;
  }
}

function prepared(p: AttemptPreparedData): string {
  const legs = p.legs.flatMap((leg) =>
    leg.slices.map(
      (s) =>
        `${s.sliceId} ${s.provider ?? 'direct'} ${s.sourceChainId}→${leg.target.chainId} ${leg.target.symbol} expected ${s.expectedOutputRaw} (min ${s.minimumOutputRaw})`,
    ),
  );
  return [
    `partner ${p.partnerId}, session ${p.intentSessionId}, key ${str(p.idempotencyKey)}`,
    `wallet ${p.wallet} → recipient ${p.recipient}`,
    `legs: ${legs.join(', ')}`,
    `evidence by ${time(p.evidenceDeadlineAt)}`,
  ].join('; ');
}

function legFailed(d: LegFailedData): string {
  const parts = [`${d.sliceId} ${d.errorCode}: ${d.errorMessage}`];
  if (d.settledAmount != null)
    parts.push(`delivered ${d.settledAmount} (${d.amountBasis ?? '-'}) in ${str(d.destinationTxHash)}`);
  if (d.refund) {
    const r = d.refund;
    parts.push(
      `refund ${str(r.amount)} (${str(r.amountBasis)}) of ${str(r.token)} to ${str(r.to)} on chain ${str(r.chainId)}, tx ${str(r.txHash)}`,
    );
  } else if (d.refundTxHash) {
    parts.push(`refund tx ${d.refundTxHash}`);
  }
  return parts.join('; ');
}
