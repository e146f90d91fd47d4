import { type QuoteErrorCodes } from '../failures/classify-quote-error';

/**
 * Mayan publishes no list of error codes (docs.mayan.finance /integration/quote-api shows none; swap-sdk v15.2.0
 * src/api.ts passes any non-2xx `{code, msg | message, data}` through as a QuoteError). The one code Mayan's own code
 * names is `AMOUNT_TOO_SMALL`: mayan-finance/wormhole-sdk-route src/index.ts (since 5e17c84, 2024-09-12) reads
 * `{ code: "AMOUNT_TOO_SMALL", data: { minAmountIn: 0.00055 }, message: "Amount too small (min ~0.00055 ETH)" }` from
 * the price API and turns it into a MinAmountError. Every other 4xx falls back to route_unavailable by status.
 * The spellings this list used to guess (`AMOUNT_TOO_LOW`, `MIN_AMOUNT`) appear in no Mayan source and are gone.
 */
export const MAYAN_ERROR_CODES: QuoteErrorCodes = {
  routeUnavailable: [],
  amountTooLow: ['AMOUNT_TOO_SMALL'],
};
