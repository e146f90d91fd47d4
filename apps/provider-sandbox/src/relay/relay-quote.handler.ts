import { jsonReply, type RouteHandler } from '../http/sandbox-http';
import { randomId } from '../http/random-id';
import { RequestFieldError } from '../http/request-field-error';
import {
  parseJsonObject,
  readAddress,
  readInt,
  readOptionalAddress,
  readString,
  readUint,
} from '../http/request-fields';
import { RateLimitedError } from '../http/rate-limited-error';
import { RouteUnavailableError } from '../pricing/quote-errors';
import { quoteScenarioFor, RATE_LIMIT_RETRY_AFTER_SECONDS } from '../scenarios/quote-scenarios';
import { contractsOn, quoteFor, readChainId, type SandboxContext } from '../sandbox-context';
import { relayQuoteBody } from './relay-quote-body';
import { relaySteps } from './relay-steps';

const DEFAULT_SLIPPAGE_BPS = 50;
const DEPOSIT_GAS = 60_000n;
const APPROVE_GAS = 46_000n;

/** `POST /quote/v2`: prices the transfer, builds approve/deposit steps and records the request id. */
export function relayQuoteHandler(context: SandboxContext): RouteHandler {
  return async (request) => {
    const body = parseJsonObject(request.rawBody);
    const user = readAddress(body, 'user');
    const recipient = readOptionalAddress(body, 'recipient') ?? user;
    const refundTo = readOptionalAddress(body, 'refundTo') ?? user;
    const originChainId = readChainId(context, body, 'originChainId');
    const destinationChainId = readChainId(context, body, 'destinationChainId');
    const originCurrency = readAddress(body, 'originCurrency');
    const destinationCurrency = readAddress(body, 'destinationCurrency');
    const amount = readUint(body, 'amount');
    if (quoteScenarioFor('relay', amount) === 'rate-limited') {
      throw new RateLimitedError(RATE_LIMIT_RETRY_AFTER_SECONDS);
    }
    if (readString(body, 'tradeType') !== 'EXACT_INPUT') {
      throw new RequestFieldError('tradeType', 'invalid', 'the sandbox quotes tradeType EXACT_INPUT only');
    }
    if (context.faults.isRouteUnavailable('relay', [originCurrency, destinationCurrency])) {
      throw new RouteUnavailableError([originCurrency, destinationCurrency]);
    }
    const quote = quoteFor(context, {
      provider: 'relay',
      originChainId,
      destinationChainId,
      inputToken: originCurrency,
      outputToken: destinationCurrency,
      amountIn: amount,
      slippageBps:
        body.slippageTolerance === undefined ? DEFAULT_SLIPPAGE_BPS : readInt(body, 'slippageTolerance'),
      appFeeBps: readAppFeeBps(body.appFees),
    });
    const requestId = randomId();
    const client = context.clients.public(originChainId);
    const fees = await client.estimateFeesPerGas();
    const steps = await relaySteps(client, {
      quote,
      user,
      depository: contractsOn(context, 'originChainId', originChainId).relayDepository,
      requestId,
      fees,
    });
    context.quotes.addRelay({
      requestId,
      user,
      recipient,
      refundTo,
      quote,
      forceRefund: body.referrer === 'debug-force-refund',
      createdAt: context.now(),
    });
    const approvals = BigInt(steps.find((s) => s.id === 'approve')?.items.length ?? 0);
    const gasUnits = DEPOSIT_GAS + APPROVE_GAS * approvals;
    return jsonReply(
      200,
      relayQuoteBody({
        quote,
        steps,
        user,
        recipient,
        prices: context.prices,
        originGas: {
          token: context.tokens.bySymbol(originChainId, 'ETH')!,
          amount: gasUnits * fees.maxFeePerGas,
        },
      }),
    );
  };
}

/** `appFees: [{recipient, fee}]`, fee in bps of the input as a string; several fees add up. */
function readAppFeeBps(appFees: unknown): number {
  if (appFees === undefined || appFees === null) return 0;
  if (!Array.isArray(appFees)) throw new RequestFieldError('appFees', 'invalid', 'appFees must be an array');
  return appFees.reduce<number>((total, entry, i) => {
    const fee = (entry as Record<string, unknown> | null)?.fee;
    if (typeof fee !== 'string' || !/^\d+$/.test(fee)) {
      throw new RequestFieldError('appFees', 'invalid', `appFees[${i}].fee must be a bps integer string`);
    }
    // Relay insists on an EVM fee recipient; the sandbox checks it but keeps no app-fee balances.
    readAddress(entry as Record<string, unknown>, 'recipient');
    return total + Number(fee);
  }, 0);
}
