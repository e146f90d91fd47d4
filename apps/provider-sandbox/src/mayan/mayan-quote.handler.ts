import { parseUnits } from 'viem';
import { randomId } from '../http/random-id';
import { RequestFieldError } from '../http/request-field-error';
import {
  isPresent,
  parseJsonObject,
  queryObject,
  readAddress,
  readInt,
  readOptionalAddress,
  readString,
  readUint,
} from '../http/request-fields';
import { jsonReply, type RouteHandler } from '../http/sandbox-http';
import { RouteUnavailableError, UnsupportedChainError } from '../pricing/quote-errors';
import { contractsOn, quoteFor, type SandboxContext } from '../sandbox-context';
import { mayanChainById, mayanChainByName } from './mayan-chains';
import { mayanQuoteBody } from './mayan-quote-body';

const AUTO_SLIPPAGE_BPS = 100;
const ORDER_TTL_SECONDS = 3600n;
const MINIMUM_SDK_VERSION = [10, 0, 0];

/**
 * `POST /quote` (JSON body) or `GET /quote` (query): one Swift quote whose `swiftMayanContract` is the
 * origin chain's sandbox MayanSwift. No transaction is returned; clients build the forwarder call.
 */
export function mayanQuoteHandler(context: SandboxContext): RouteHandler {
  return (request) => {
    const source = request.method === 'POST' ? parseJsonObject(request.rawBody) : queryObject(request.query);
    const from = readChain(context, source, 'fromChain');
    const to = readChain(context, source, 'toChain');
    const fromToken = readAddress(source, 'fromToken');
    const toToken = readAddress(source, 'toToken');
    const destinationAddress = readOptionalAddress(source, 'destinationAddress');
    // The sandbox only runs Swift; a client that turns it off asks for a route that does not exist here.
    if (
      source.swift === false ||
      source.swift === 'false' ||
      context.faults.isRouteUnavailable('mayan', [fromToken, toToken])
    ) {
      throw new RouteUnavailableError([fromToken, toToken]);
    }
    const referrerBps = isPresent(source.referrerBps) ? readInt(source, 'referrerBps') : 0;
    const slippage = source.slippageBps;
    const quote = quoteFor(context, {
      provider: 'mayan',
      originChainId: from.chainId,
      destinationChainId: to.chainId,
      inputToken: fromToken,
      outputToken: toToken,
      amountIn: readAmountIn(context, source, from.chainId, fromToken),
      slippageBps:
        slippage === undefined || slippage === 'auto' ? AUTO_SLIPPAGE_BPS : readInt(source, 'slippageBps'),
      appFeeBps: referrerBps,
    });
    const quoteId = randomId(16);
    context.quotes.addMayan({ quoteId, destinationAddress, quote, createdAt: context.now(), matched: false });
    const body = mayanQuoteBody({
      quoteId,
      quote,
      from,
      to,
      swiftContract: contractsOn(context, 'fromChain', from.chainId).mayanSwift,
      deadline: BigInt(Math.floor(context.now() / 1000)) + ORDER_TTL_SECONDS,
      referrerBps,
    });
    return Promise.resolve(jsonReply(200, { minimumSdkVersion: MINIMUM_SDK_VERSION, quotes: [body] }));
  };
}

function readChain(context: SandboxContext, source: Record<string, unknown>, field: string) {
  const name = readString(source, field);
  const chain = mayanChainByName(name);
  if (!chain || !context.clients.has(chain.chainId)) throw new UnsupportedChainError(field, name);
  return { chainId: chain.chainId, ...mayanChainById(chain.chainId)! };
}

/** `amountIn64` (base units); the deprecated human `amountIn` still works, as on the real API. */
function readAmountIn(
  context: SandboxContext,
  source: Record<string, unknown>,
  chainId: number,
  token: string,
): bigint {
  if (isPresent(source.amountIn64) || !isPresent(source.amountIn)) return readUint(source, 'amountIn64');
  const decimals = context.tokens.find(chainId, token)?.decimals;
  const human = String(source.amountIn);
  if (decimals === undefined || !/^\d+(\.\d+)?$/.test(human)) {
    throw new RequestFieldError('amountIn', 'invalid', 'amountIn must be a decimal amount of a known token');
  }
  return parseUnits(human, decimals);
}
