import { intentSessionDecider, intentSessionStreamId } from '@svc/domain';
import { type EventStore, type QuarantinedEvent } from '@svc/event-store';
import { readAttempt } from '../history/read-attempt';
import { foldStream } from '../history/stored-events';
import { forEachPreparedAttempt } from '../verify/each-prepared-attempt';
import { type AttemptFees, attemptFees } from './attempt-fees';

/** What one source token's legs owe, summed (base units of that token). */
export interface TokenTotals {
  chainId: number;
  token: string;
  symbol: string;
  decimals: number;
  appFee: bigint;
  serviceFee: bigint;
  markup: bigint;
  markupRecorded: bigint;
  markupRecordedOwed: bigint;
}

export interface FeeTotals {
  attempts: number;
  byStatus: Record<string, number>;
  legs: { owed: number; nothing: number; open: number };
  /** The settled legs by the basis of their settled amount. */
  basis: { exact: number; estimated: number };
  providerFeeUsd: number;
  /** Settled legs whose quote carried no provider fee figure. */
  providerFeeUnknown: number;
  tokens: TokenTotals[];
  problems: number;
  /** Stored events the service refuses: an attempt (or its quote) not reckoned, each told to `onMalformed`. */
  malformed: number;
}

/**
 * The fees of a partner's attempts prepared in [from, to), each handed to `onAttempt` as it is computed, totals
 * returned at the end: one attempt's events in memory at a time (and a total per source token). A stored event the
 * service refuses (a malformed AttemptPrepared met on the walk, whatever its partner; one in an attempt's or its
 * session's stream) is handed to `onMalformed`, and that attempt, or its quote, is not reckoned.
 */
export async function feeReport(
  store: EventStore,
  range: { partnerId: string; from: number; to: number },
  onAttempt: (fees: AttemptFees) => void,
  onMalformed: (event: QuarantinedEvent) => void,
): Promise<FeeTotals> {
  const totals: FeeTotals = {
    attempts: 0,
    byStatus: {},
    legs: { owed: 0, nothing: 0, open: 0 },
    basis: { exact: 0, estimated: 0 },
    providerFeeUsd: 0,
    providerFeeUnknown: 0,
    tokens: [],
    problems: 0,
    malformed: 0,
  };
  const malformed = (event: QuarantinedEvent) => {
    totals.malformed += 1;
    onMalformed(event);
  };
  await forEachPreparedAttempt(
    store,
    {
      filter: (p) => p.partnerId === range.partnerId && p.preparedAt >= range.from && p.preparedAt < range.to,
      concurrency: 1,
      onMalformed: malformed,
    },
    async ({ attemptId, intentSessionId }) => {
      const attempt = await readAttempt(store, attemptId);
      if (attempt === null) return;
      if (attempt.refused !== null) {
        malformed(attempt.refused);
        return;
      }
      const session = foldStream(
        intentSessionDecider,
        await store.readStream(intentSessionStreamId(intentSessionId)),
      );
      if (session.refused !== null) malformed(session.refused);
      const quote = session.state === null || session.state.status === 'none' ? null : session.state.quote;
      const fees = attemptFees(attempt.record, quote);
      add(totals, fees);
      onAttempt(fees);
    },
  );
  return totals;
}

function add(totals: FeeTotals, fees: AttemptFees): void {
  totals.attempts += 1;
  totals.byStatus[fees.status] = (totals.byStatus[fees.status] ?? 0) + 1;
  totals.problems += fees.problems.length;
  for (const leg of fees.legs) {
    totals.legs[leg.owing] += 1;
    if (leg.basis !== null) totals.basis[leg.basis] += 1;
    if (leg.owing === 'owed' && leg.providerFeeUsd === null) totals.providerFeeUnknown += 1;
    totals.providerFeeUsd = Math.round((totals.providerFeeUsd + (leg.providerFeeUsd ?? 0)) * 1e6) / 1e6;
    let token = totals.tokens.find(
      (t) => t.chainId === leg.source.chainId && t.token.toLowerCase() === leg.source.token.toLowerCase(),
    );
    if (token === undefined) {
      token = {
        ...leg.source,
        appFee: 0n,
        serviceFee: 0n,
        markup: 0n,
        markupRecorded: 0n,
        markupRecordedOwed: 0n,
      };
      totals.tokens.push(token);
    }
    token.appFee += leg.appFee;
    token.serviceFee += leg.serviceFee;
    token.markup += leg.markup;
    token.markupRecorded += leg.markupRecorded ?? 0n;
    token.markupRecordedOwed += leg.markupRecordedOwed;
  }
}
