import { type Address, type Hex } from 'viem';
import { mayanChainById } from '../mayan/mayan-chains';
import { SANDBOX_MAYAN_API_KEY } from '../mayan/mayan-explorer-key';
import { type SandboxProvider } from '../pricing/sandbox-provider';
import { type RunningSandbox } from '../start-sandbox';
import { httpJson, tokenAddress } from './sandbox-test-kit';
import { swiftOrderCalls, swiftRandomFor } from './swift-order-calls';

const SWIFT_DECIMALS = 8n;

export interface DepositRequest {
  /** The depositor (a funded sandbox user). */
  user: Address;
  recipient: Address;
  fromChainId: number;
  toChainId: number;
  tokenIn: string;
  tokenOut: string;
  /** Base units of `tokenIn`; its last three digits choose the scenario. */
  amount: bigint;
  /** Across only: the quote's `refundAddress`. */
  refundAddress?: Address;
}

export interface ProviderDeposit {
  /** The approvals and the deposit, in the order a wallet sends or batches them. */
  calls: { to: Address; data: Hex; value: bigint }[];
  expectedOutput: bigint;
  minimumOutput: bigint;
  /** The status endpoint for the deposit, given the hash of the transaction that made it. */
  statusUrl(sourceTx: Hex): string;
}

/**
 * Quotes through a dialect's HTTP API and returns what a client would send for it: relay's steps, across's
 * approvals and swapTx, or the forwarder order a Mayan client builds. Test-only.
 */
export async function quoteDeposit(
  sandbox: RunningSandbox,
  provider: SandboxProvider,
  request: DepositRequest,
): Promise<ProviderDeposit> {
  const tokenIn = tokenAddress(sandbox, request.fromChainId, request.tokenIn);
  const tokenOut = tokenAddress(sandbox, request.toChainId, request.tokenOut);
  switch (provider) {
    case 'relay':
      return relayDeposit(sandbox, request, tokenIn, tokenOut);
    case 'across':
      return acrossDeposit(sandbox, request, tokenIn, tokenOut);
    case 'mayan':
      return mayanDeposit(sandbox, request, tokenIn, tokenOut);
  }
}

type Call = { to: Address; data: Hex; value?: string };

/** The parts of each dialect's quote answer a client needs to deposit. */
interface RelayQuoteAnswer {
  steps: { requestId: Hex; items: { data: Call }[] }[];
  details: { currencyOut: { amount: string; minimumAmount: string } };
}
interface AcrossQuoteAnswer {
  approvalTxns: Call[];
  swapTx: Call;
  expectedOutputAmount: string;
  minOutputAmount: string;
}
interface MayanQuoteAnswer {
  quotes: {
    quoteId: string;
    swiftVersion: 'V1' | 'V2';
    cancelRelayerFee64: string;
    refundRelayerFee64: string;
    toToken: { decimals: number };
    swiftMayanContract: Address;
    swiftAuctionMode: number;
    deadline64: string;
    expectedAmountOutBaseUnits: string;
    minReceivedBaseUnits: string;
  }[];
}
const toCall = (c: Call) => ({ to: c.to, data: c.data, value: BigInt(c.value ?? '0') });

async function relayDeposit(
  sandbox: RunningSandbox,
  r: DepositRequest,
  tokenIn: Address,
  tokenOut: Address,
): Promise<ProviderDeposit> {
  const quote = await ok<RelayQuoteAnswer>(
    httpJson(`${sandbox.url}/relay/quote/v2`, {
      body: {
        user: r.user,
        recipient: r.recipient,
        originChainId: r.fromChainId,
        destinationChainId: r.toChainId,
        originCurrency: tokenIn,
        destinationCurrency: tokenOut,
        amount: r.amount.toString(),
        tradeType: 'EXACT_INPUT',
      },
    }),
  );
  const { steps } = quote;
  const requestId = steps[0].requestId;
  return {
    calls: steps.flatMap((s) => s.items.map((i) => toCall(i.data))),
    expectedOutput: BigInt(quote.details.currencyOut.amount),
    minimumOutput: BigInt(quote.details.currencyOut.minimumAmount),
    statusUrl: () => `${sandbox.url}/relay/intents/status/v3?requestId=${requestId}`,
  };
}

async function acrossDeposit(
  sandbox: RunningSandbox,
  r: DepositRequest,
  tokenIn: Address,
  tokenOut: Address,
): Promise<ProviderDeposit> {
  const query = new URLSearchParams({
    tradeType: 'exactInput',
    amount: r.amount.toString(),
    inputToken: tokenIn,
    outputToken: tokenOut,
    originChainId: String(r.fromChainId),
    destinationChainId: String(r.toChainId),
    depositor: r.user,
    recipient: r.recipient,
    ...(r.refundAddress ? { refundAddress: r.refundAddress } : {}),
  });
  const quote = await ok<AcrossQuoteAnswer>(
    httpJson(`${sandbox.url}/across/swap/approval?${query.toString()}`),
  );
  return {
    calls: [...quote.approvalTxns, quote.swapTx].map(toCall),
    expectedOutput: BigInt(quote.expectedOutputAmount),
    minimumOutput: BigInt(quote.minOutputAmount),
    statusUrl: (tx) => `${sandbox.url}/across/deposit/status?depositTxnRef=${tx}`,
  };
}

async function mayanDeposit(
  sandbox: RunningSandbox,
  r: DepositRequest,
  tokenIn: Address,
  tokenOut: Address,
): Promise<ProviderDeposit> {
  const answer = await ok<MayanQuoteAnswer>(
    httpJson(`${sandbox.url}/mayan-price/quote`, {
      body: {
        amountIn64: r.amount.toString(),
        fromToken: tokenIn,
        fromChain: mayanChainById(r.fromChainId)!.name,
        toToken: tokenOut,
        toChain: mayanChainById(r.toChainId)!.name,
        destinationAddress: r.recipient,
        slippageBps: 50,
        forwarderAddress: sandbox.manifest.providers.mayan.forwarderAddress,
        sdkVersion: '15_2_0',
      },
    }),
  );
  const q = answer.quotes[0];
  const decimalsOut = BigInt(q.toToken.decimals);
  const swiftScale = 10n ** (decimalsOut > SWIFT_DECIMALS ? decimalsOut - SWIFT_DECIMALS : 0n);
  const calls = swiftOrderCalls({
    forwarder: sandbox.manifest.providers.mayan.forwarderAddress,
    swift: q.swiftMayanContract,
    version: q.swiftVersion,
    tokenIn,
    amountIn: r.amount,
    trader: r.user,
    tokenOut,
    recipient: r.recipient,
    destWormholeChainId: mayanChainById(r.toChainId)!.wormholeId,
    minAmountOut: BigInt(q.minReceivedBaseUnits) / swiftScale,
    deadline: BigInt(q.deadline64),
    auctionMode: q.swiftAuctionMode,
    cancelFee: BigInt(q.cancelRelayerFee64),
    refundFee: BigInt(q.refundRelayerFee64),
    random: swiftRandomFor(q.quoteId),
  });
  return {
    calls: calls.map((c) => ({ ...c, value: 0n })),
    expectedOutput: BigInt(q.expectedAmountOutBaseUnits),
    minimumOutput: BigInt(q.minReceivedBaseUnits),
    statusUrl: (tx) => `${sandbox.url}/mayan-explorer/swap/trx/${tx}?apiKey=${SANDBOX_MAYAN_API_KEY}`,
  };
}

async function ok<T>(answer: ReturnType<typeof httpJson>): Promise<T> {
  const reply = await answer;
  if (reply.status !== 200) throw new Error(`quote failed: ${reply.status} ${reply.text}`);
  return reply.body as T;
}
