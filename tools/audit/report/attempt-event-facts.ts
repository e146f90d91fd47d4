import { type AttemptEvent, type AttemptPreparedData, type LegFailedData } from '@svc/domain';
import { str, time } from './render';

/** The facts of an `attempt-<id>` event, read through the attempt decider's guard. */
export function attemptEventFacts(event: AttemptEvent): string {
  switch (event.type) {
    case 'AttemptPrepared':
      return prepared(event.data);
    case 'EvidenceReported': {
      const d = event.data;
      const chains = d.chainResults.map(
        (r) =>
          `chain ${r.chainId}: ${r.txHashes.length === 0 ? 'no tx' : r.txHashes.join(', ')}${r.bundleId ? `, bundle ${r.bundleId}` : ''}`,
      );
      return `${chains.join('; ')}; submittedAt ${time(d.submittedAt)}`;
    }
    case 'AuthorizationSigned':
      return `signed by ${str(event.data.signer)}`;
    case 'SourceTransactionConfirmed': {
      const d = event.data;
      return `chain ${str(d.chainId)} tx ${str(d.txHash)}: confirmed in block ${str(d.blockNumber)}, calls ${d.callIds.join(',')}`;
    }
    case 'SourceTransactionReverted':
      return `chain ${str(event.data.chainId)} tx ${str(event.data.txHash)}: reverted`;
    case 'SourceTransactionMismatched':
    case 'SourceTransactionUnknown':
      return `chain ${str(event.data.chainId)} tx ${str(event.data.txHash)}: ${str(event.data.reason)}`;
    case 'LegPending':
      return `${str(event.data.sliceId)} provider status ${str(event.data.providerStatus)}`;
    case 'LegFillRejected': {
      const d = event.data;
      return `${str(d.sliceId)} fill ${str(d.destinationTxHash)} rejected: ${str(d.reason)}`;
    }
    case 'LegDelayed': {
      const d = event.data;
      return `${str(d.sliceId)} expected by ${time(d.expectedBy)}${d.explorerUrl ? `, ${str(d.explorerUrl)}` : ''}`;
    }
    case 'LegSettled': {
      const d = event.data;
      return `${str(d.sliceId)} settled ${str(d.settledAmount)} (${str(d.amountBasis)}), fill ${str(d.destinationTxHash)}${deposit(d.depositKey)}`;
    }
    case 'LegOwed':
      return `${str(event.data.sliceId)} still owed by its provider until ${time(event.data.until)}`;
    case 'LegFillSeen': {
      const d = event.data;
      return `${str(d.sliceId)} fill ${str(d.destinationTxHash)} seen in block ${str(d.blockNumber)} (${str(d.blockHash)}), ${str(d.settledAmount)} (${str(d.amountBasis)})${deposit(d.depositKey)}: awaiting confirmations`;
    }
    case 'LegFillReorged': {
      const d = event.data;
      return `${str(d.sliceId)} fill ${str(d.destinationTxHash)} reorganised out before final: ${str(d.reason)}`;
    }
    case 'SourceTransactionReorged':
      return `chain ${str(event.data.chainId)} tx ${str(event.data.txHash)}: reorganised out: ${str(event.data.reason)}`;
    case 'SettledFillVanished': {
      const d = event.data;
      return `ALARM ${str(d.sliceId)} settled fill ${str(d.destinationTxHash)} vanished after settled: ${str(d.reason)}`;
    }
    case 'LegFailed':
      return legFailed(event.data);
    case 'AttemptFailed':
      return `${str(event.data.errorCode)}: ${str(event.data.errorMessage)}`;
    case 'AttemptWalletSubmitted':
    case 'AttemptProviderPending':
    case 'AttemptSettled':
    case 'AttemptExpired':
      return `at ${time(event.data.at)}`;
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

/** The deposit key a fill was claimed under (issue 24 item 1); nothing for an earlier build's event without one. */
const deposit = (key: unknown) => (key === undefined ? '' : `, deposit ${str(key)}`);
