import { formatRaw } from '@svc/domain';
import { str } from '../report/render';
import { type AttemptFees } from './attempt-fees';
import { type FeeTotals, type TokenTotals } from './fee-report';

const COLUMNS = [
  'attemptId',
  'preparedAt',
  'attemptStatus',
  'sliceId',
  'provider',
  'legStatus',
  'owing',
  'basis',
  'sourceChainId',
  'sourceToken',
  'sourceSymbol',
  'sourceDecimals',
  'inputRaw',
  'askedBps',
  'collectedBps',
  'appFeeRaw',
  'serviceFeeRaw',
  'markupOwedRaw',
  'markupRecordedRaw',
  'markupRecordedOwedRaw',
  'providerFeeUsd',
] as const;

export function feesHeader(range: { partnerId: string; from: number; to: number }): string {
  return (
    [
      `fees of partner ${range.partnerId}, attempts prepared from ${iso(range.from)} to ${iso(range.to)} (exclusive)`,
      'owed only on legs that settled; raw amounts in base units of the source token; provider fees: USD as quoted',
      '',
      `${'attempt / leg'.padEnd(46)} ${'leg status'.padEnd(15)} ${'owing'.padEnd(8)} ${'basis'.padEnd(10)} ${'input (token@chain)'.padEnd(29)} bps  service fee  markup owed  markup (quote)  provider fee (quoted)`,
    ].join('\n') + '\n'
  );
}

/** An attempt's legs as table rows (text). */
export function feesRows(fees: AttemptFees): string {
  const head = `${fees.attemptId} (${fees.status}, prepared ${iso(fees.preparedAt)})`;
  const legs = fees.legs.map(
    (l) =>
      `  ${l.sliceId.padEnd(44)} ${l.legStatus.padEnd(15)} ${l.owing.padEnd(8)} ${str(l.basis).padEnd(10)} ${`${l.input} ${l.source.symbol}@${l.source.chainId}`.padEnd(29)} ${String(l.collectedBps).padStart(3)}  ${String(l.serviceFee).padStart(11)}  ${String(l.markup).padStart(11)}  ${str(l.markupRecorded).padStart(14)}  ${usd(l.providerFeeUsd)}`,
  );
  const problems = fees.problems.map((p) => `  ! ${p}`);
  return [head, ...(legs.length === 0 ? ['  no provider legs'] : legs), ...problems].join('\n') + '\n';
}

export function feesTotals(totals: FeeTotals): string {
  const statuses = Object.entries(totals.byStatus).map(([s, n]) => `${s} ${n}`);
  return [
    '',
    `totals: ${totals.attempts} attempt(s)${statuses.length === 0 ? '' : ` (${statuses.join(', ')})`}; legs owing ${totals.legs.owed}, owing nothing ${totals.legs.nothing}, still open ${totals.legs.open}`,
    ...totals.tokens.map(tokenLine),
    `  provider fees on settled legs: ${usd(totals.providerFeeUsd)} as quoted${totals.providerFeeUnknown === 0 ? '' : ` (${totals.providerFeeUnknown} leg(s) without a figure)`}`,
    `  basis of the settled legs: ${totals.basis.exact} exact, ${totals.basis.estimated} estimated`,
    `  markup records that disagree with their own inputs: ${totals.problems}`,
    `  stored events the service refuses (not reckoned): ${totals.malformed}`,
    '',
  ].join('\n');
}

function tokenLine(t: TokenTotals): string {
  const amount = (raw: bigint) => `${raw} (${formatRaw(raw, t.decimals)} ${t.symbol})`;
  return `  ${t.symbol || t.token} ${t.token} on ${t.chainId}: service fee ${amount(t.serviceFee)}, markup owed ${amount(t.markup)}; markup recorded at quote ${amount(t.markupRecorded)}, reconciled with settlement ${amount(t.markupRecordedOwed)}`;
}

export const csvHeader = () => `${COLUMNS.join(',')}\n`;

export function csvRows(fees: AttemptFees): string {
  return fees.legs
    .map((l) =>
      [
        fees.attemptId,
        iso(fees.preparedAt),
        fees.status,
        l.sliceId,
        l.provider,
        l.legStatus,
        l.owing,
        l.basis ?? '',
        l.source.chainId,
        l.source.token,
        l.source.symbol,
        l.source.decimals,
        l.input,
        l.askedBps,
        l.collectedBps,
        l.appFee,
        l.serviceFee,
        l.markup,
        l.markupRecorded ?? '',
        l.markupRecordedOwed,
        l.providerFeeUsd ?? '',
      ]
        .map((v) => csvCell(String(v)))
        .join(','),
    )
    .map((row) => `${row}\n`)
    .join('');
}

/** One TOTAL row per source token: the attempt columns empty, the sums in the amount columns. */
export function csvTotals(totals: FeeTotals): string {
  return totals.tokens
    .map((t) =>
      [
        'TOTAL',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        t.chainId,
        t.token,
        t.symbol,
        t.decimals,
        '',
        '',
        '',
        t.appFee,
        t.serviceFee,
        t.markup,
        t.markupRecorded,
        t.markupRecordedOwed,
        '',
      ]
        .map((v) => csvCell(String(v)))
        .join(','),
    )
    .map((row) => `${row}\n`)
    .join('');
}

function csvCell(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

const iso = (ms: number) => new Date(ms).toISOString();
const usd = (value: number | null) => (value === null ? '-' : `$${value}`);
