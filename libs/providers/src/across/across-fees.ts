import { feeSummary, lossFromImpact } from '../fee-summary';
import { type ProviderQuote } from '../provider-quote';
import { optionalRecord, usd, type JsonRecord } from '../response/json-fields';

type AcrossEconomics = Pick<ProviderQuote, 'inputUsd' | 'outputUsd' | 'feeUsd' | 'feeBreakdown' | 'lossUsd'>;

/**
 * Across's `fees.total` is input USD minus output USD, i.e. bridge + app + swap impact; we report the first two
 * (plus origin gas, paid on top) as fees and the swap impact as loss, since the two are never added together.
 * The answer carries no USD value for input or output, but `total.pct` is total/input (1e18-scaled), so
 * input = total / pct and output = input - total.
 */
export function acrossFees(answer: JsonRecord): AcrossEconomics {
  const fees = optionalRecord(answer.fees);
  const total = optionalRecord(fees?.total);
  const details = optionalRecord(total?.details);
  const totalUsd = usd(total?.amountUsd);
  const gas = { kind: 'gas' as const, usd: usd(optionalRecord(fees?.originGas)?.amountUsd) };
  const breakdown =
    details === undefined
      ? feeSummary([{ kind: 'other', usd: totalUsd }, gas])
      : feeSummary([
          { kind: 'provider', usd: usd(optionalRecord(details.bridge)?.amountUsd) },
          { kind: 'app', usd: usd(optionalRecord(details.app)?.amountUsd) },
          gas,
        ]);
  const pct = usd(total?.pct);
  const inputUsd = totalUsd !== null && pct !== null && pct > 0 ? totalUsd / (pct / 1e18) : null;
  return {
    inputUsd,
    outputUsd: inputUsd !== null && totalUsd !== null ? inputUsd - totalUsd : null,
    ...breakdown,
    lossUsd: lossFromImpact(negate(usd(optionalRecord(details?.swapImpact)?.amountUsd))),
  };
}

/** Across states swap impact as a cost (positive = the user loses); lossFromImpact wants a signed impact. */
function negate(value: number | null): number | null {
  return value === null ? null : -value;
}
