import { formatUnits, getAddress } from 'viem';
import { type QuoteToken } from '../pricing/compute-quote';
import { formatMicroUsd } from '../pricing/format-usd';
import { type PriceTable } from '../pricing/price-table';
import { usdValue } from '../pricing/compute-quote';
import { isNative, tokenName } from '../tokens/token-directory';

/** Relay's currency object (reference §1.2 AmountObj.currency). */
export function relayCurrency(token: QuoteToken) {
  return {
    chainId: token.chainId,
    address: getAddress(token.address),
    symbol: token.symbol,
    name: tokenName(token.symbol),
    decimals: token.decimals,
    metadata: { logoURI: '', verified: true, isNative: isNative(token.address) },
  };
}

/** Relay's AmountObj: base-unit `amount`, human `amountFormatted`, decimal-string `amountUsd`. */
export function relayAmount(token: QuoteToken, amount: bigint, prices: PriceTable, minimumAmount = amount) {
  const price = prices[token.symbol] ?? 0n;
  return {
    currency: relayCurrency(token),
    amount: amount.toString(),
    amountFormatted: formatUnits(amount, token.decimals),
    amountUsd: formatMicroUsd(usdValue(amount, token.decimals, price)),
    minimumAmount: minimumAmount.toString(),
  };
}
