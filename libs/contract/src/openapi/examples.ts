import { type AttemptSnapshot } from '../attempt/attempt-snapshot.types';
import { type WebhookEventKind } from '../enums/webhook-event-kind';
import { API_VERSION } from '../errors/error-response';
import { type PingResponse } from '../ping/ping-response.types';
import { type PrepareRequestDto } from '../prepare/prepare-request.dto';
import { type PrepareResponse } from '../prepare/prepare-response.types';
import {
  WALLET_AUTHORIZATION_PRIMARY_TYPE,
  WALLET_AUTHORIZATION_TYPES,
} from '../prepare/wallet-authorization.types';
import { type QuoteRequestDto } from '../quote/quote-request.dto';
import { type QuoteResponse } from '../quote/quote-response.types';
import { type Target } from '../quote/target.types';
import { type SubmittedRequestDto } from '../submitted/submitted-request.dto';
import { type WebhookEventPayload } from '../webhook/webhook-event-payload.types';
import {
  type AttemptSearchRequestBody,
  type AttemptSearchResponse,
  type TransactionAttemptResponse,
} from '../lookups/lookup.types';
import { encodeSearchCursor } from '../lookups/search-cursor';

/**
 * The document's examples, typed as the contract's wire types so that they cannot drift from them; the tests also
 * run the request examples through the contract's validators and every example through the document's schemas.
 * One story: 25 USDC on Ethereum and 15 USDC on Arbitrum consolidated into USDC on Base, routed by relay.
 */

const WALLET = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const USDC_ETHEREUM = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const USDC_ARBITRUM = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const WETH_BASE = '0x4200000000000000000000000000000000000006';
const RELAY_RECEIVER = '0xa5F565650890fBA1824Ee0F21EbBbF660a179934';
const INTENT_SESSION_ID = 'is_8c1f0e2a4b6d4f7e9a0b1c2d3e4f5a6b';
const ATTEMPT_ID = 'at_3e9d2c1b0a4f4e8d9c7b6a5f4e3d2c1b';
const PARTNER_ID = 'acme';
const TX_ETHEREUM = '0x5194ead3df889a15f3d33e47bcc128114dbb9dcd1147f2de8a8ffba6a815f248';
const TX_ARBITRUM = '0x183a7d361ca1625fa85289cbdf578effaa4376f038587b9ab574e3fe80e5edc5';
const FILL_ETHEREUM = '0x97a85b9f687bba82d44975f5f92f40894dc150ae53b4683e2e1509313bac6f73';
const FILL_ARBITRUM = '0x4a65af02a6b35dc2aa600611e5e7edc5e1b6bdb8c79a250434ca9b84e30b1c70';
const SIGNATURE = `0x${'5a'.repeat(32)}${'3c'.repeat(32)}1b`;
const QUOTE_EXPIRES_AT = '2026-03-02T10:01:00.000Z';
const PREPARE_EXPIRES_AT = '2026-03-02T10:00:50.000Z';
const EVIDENCE_DEADLINE_AT = '2026-03-02T10:15:20.000Z';
const SUBMITTED_AT_MS = Date.parse('2026-03-02T10:00:41.000Z');

export const QUOTE_REQUEST_EXAMPLE = {
  walletAddress: WALLET,
  recipient: WALLET,
  sources: [
    { chainId: 1, address: USDC_ETHEREUM, amount: '25000000', symbol: 'USDC', decimals: 6, usdValue: '25' },
    {
      chainId: 42161,
      address: USDC_ARBITRUM,
      amount: '15000000',
      symbol: 'USDC',
      decimals: 6,
      usdValue: '15',
    },
  ],
  target: {
    chainId: 8453,
    address: USDC_BASE,
    targetToken: { address: USDC_BASE, symbol: 'USDC', decimals: 6, priceUSD: '1' },
  },
  slippageBps: 50,
  maxWaitMs: 8000,
  feeBps: 25,
} satisfies QuoteRequestDto;

export const MULTI_TARGET_QUOTE_REQUEST_EXAMPLE = {
  walletAddress: WALLET,
  sources: QUOTE_REQUEST_EXAMPLE.sources,
  targets: [
    {
      id: 'stable',
      chainId: 8453,
      address: USDC_BASE,
      allocationPercent: 75,
      targetToken: { address: USDC_BASE, symbol: 'USDC', decimals: 6 },
    },
    {
      id: 'eth',
      chainId: 8453,
      address: WETH_BASE,
      allocationPercent: 25,
      targetToken: { address: WETH_BASE, symbol: 'WETH', decimals: 18 },
    },
  ],
  allowPartial: true,
  allowedProviders: ['relay', 'across'],
} satisfies QuoteRequestDto;

const TARGET: Target = {
  id: 't0',
  chainId: 8453,
  address: USDC_BASE,
  allocationPercent: 100,
  targetToken: { address: USDC_BASE, chainId: 8453, symbol: 'USDC', decimals: 6, priceUSD: '1' },
};
const OUTPUT = { chainId: 8453, tokenAddress: USDC_BASE, symbol: 'USDC', decimals: 6 };

export const QUOTE_RESPONSE_EXAMPLE: QuoteResponse = {
  apiVersion: API_VERSION,
  quoteStatus: 'ready',
  intentSessionId: INTENT_SESSION_ID,
  expiresAt: QUOTE_EXPIRES_AT,
  coverageMode: 'full',
  allocationPlan: {
    legs: [
      {
        outputTargetId: 't0',
        target: TARGET,
        sourceAllocations: [
          {
            inputTokenIndex: 0,
            chainId: 1,
            address: USDC_ETHEREUM,
            symbol: 'USDC',
            decimals: 6,
            allocatedRawAmount: '25000000',
            allocatedAmount: '25',
            isNoop: false,
            isSameSymbolRoute: true,
            allocatedUsdValue: '25',
          },
          {
            inputTokenIndex: 1,
            chainId: 42161,
            address: USDC_ARBITRUM,
            symbol: 'USDC',
            decimals: 6,
            allocatedRawAmount: '15000000',
            allocatedAmount: '15',
            isNoop: false,
            isSameSymbolRoute: true,
            allocatedUsdValue: '15',
          },
        ],
      },
    ],
  },
  selectedPlan: {
    isFullPlan: true,
    coveredSliceCount: 2,
    totalSliceCount: 2,
    providerSet: ['relay'],
    legs: [
      {
        outputTargetId: 't0',
        routeId: 't0:relay',
        provider: 'relay',
        target: TARGET,
        coveredSliceCount: 2,
        totalSliceCount: 2,
        requiredQuoteCount: 2,
        noopSliceCount: 0,
        isFullRoute: true,
        summary: {
          expectedOutputRaw: '39861000',
          minimumOutputRaw: '39661695',
          expectedOutputAmount: '39.861',
          minimumOutputAmount: '39.661695',
          output: OUTPUT,
          totalOutputUsd: 39.86,
          totalFeeUsd: 0.14,
          totalLossUsd: 0,
          timeEstimate: 12,
        },
        failedSources: [],
      },
    ],
    summary: { totalOutputUsd: 39.86, totalFeeUsd: 0.14, totalLossUsd: 0, timeEstimate: 12 },
  },
  failedSources: [],
  routeEvaluations: [
    {
      outputTargetId: 't0',
      quoteStatus: 'ready',
      selectedRouteId: 't0:relay',
      evaluations: [
        {
          outputTargetId: 't0',
          routeId: 't0:relay',
          provider: 'relay',
          coveredSliceCount: 2,
          totalSliceCount: 2,
          isFullRoute: true,
          availability: 'available',
          isSelected: true,
          failedSources: [],
          requiredQuoteCount: 2,
          isBestReturn: true,
          isFastest: true,
          expectedOutputAmount: '39.861',
          minimumOutputAmount: '39.661695',
          output: OUTPUT,
          totalFeeUsd: 0.14,
          timeEstimate: 12,
        },
        {
          outputTargetId: 't0',
          routeId: 't0:mayan',
          provider: 'mayan',
          coveredSliceCount: 1,
          totalSliceCount: 2,
          isFullRoute: false,
          availability: 'partial',
          isSelected: false,
          failedSources: [
            {
              outputTargetId: 't0',
              provider: 'mayan',
              symbol: 'USDC',
              address: USDC_ARBITRUM,
              chainId: 42161,
              reasonCode: 'amount_too_low',
              reason: 'The amount is below the provider minimum.',
              inputTokenIndex: 1,
              amount: '15000000',
            },
          ],
        },
      ],
    },
  ],
};

export const PREPARE_REQUEST_EXAMPLE = {
  walletContext: {
    connectorName: 'MetaMask',
    connectorId: 'io.metamask',
    walletCapabilities: {},
  },
} satisfies PrepareRequestDto;

const sourceToken = (chain: string, amount: string, address: string) => ({
  chain,
  amount,
  symbol: 'USDC',
  address,
  rawAmount: `${amount}000000`,
  usdValue: amount,
});

const APPROVE_DATA = `0x095ea7b3${'0'.repeat(24)}${RELAY_RECEIVER.slice(2).toLowerCase()}${'0'.repeat(56)}017d7840`;

export const PREPARE_RESPONSE_EXAMPLE: PrepareResponse = {
  apiVersion: API_VERSION,
  attemptId: ATTEMPT_ID,
  intentSessionId: INTENT_SESSION_ID,
  status: 'prepared',
  expiresAt: PREPARE_EXPIRES_AT,
  evidenceDeadlineAt: EVIDENCE_DEADLINE_AT,
  chainActions: [
    {
      chainId: 1,
      provider: 'relay',
      submitMethod: 'sendTransaction',
      atomicRequired: false,
      calls: null,
      transactions: [
        {
          chainId: 1,
          to: USDC_ETHEREUM,
          data: APPROVE_DATA,
          value: '0',
          callId: 'chain:1:call:0',
          callIndex: 0,
          quoteIndex: 0,
          gas: null,
        },
        {
          chainId: 1,
          to: RELAY_RECEIVER,
          data: '0x49290c1c…',
          value: '0',
          callId: 'chain:1:call:1',
          callIndex: 1,
          quoteIndex: 0,
          gas: '180000',
        },
      ],
      transactionCount: 2,
      quoteCount: 1,
      quotePlans: [
        {
          provider: 'relay',
          callCount: 2,
          callStart: 0,
          quoteIndex: 0,
          outputTargetId: 't0',
          transactionCount: 2,
          primaryCallIndex: 1,
          sourceTokenCount: 1,
        },
      ],
      perLegPreview: [
        {
          legIndex: 0,
          provider: 'relay',
          outputSymbol: 'USDC',
          sourceTokens: [sourceToken('ethereum', '25', USDC_ETHEREUM)],
          sourceChainId: 1,
          outputTargetId: 't0',
          expectedOutputAmount: '24913000',
          expectedOutputFormatted: '24.913',
          expectedOutputUsd: '24.91',
        },
      ],
    },
    {
      chainId: 42161,
      provider: 'relay',
      submitMethod: 'sendTransaction',
      atomicRequired: false,
      calls: null,
      transactions: [
        {
          chainId: 42161,
          to: RELAY_RECEIVER,
          data: '0x49290c1c…',
          value: '0',
          callId: 'chain:42161:call:0',
          callIndex: 0,
          quoteIndex: 0,
        },
      ],
      transactionCount: 1,
      quoteCount: 1,
      quotePlans: [
        {
          provider: 'relay',
          callCount: 1,
          callStart: 0,
          quoteIndex: 0,
          outputTargetId: 't0',
          transactionCount: 1,
        },
      ],
      perLegPreview: [
        {
          legIndex: 1,
          provider: 'relay',
          outputSymbol: 'USDC',
          sourceTokens: [sourceToken('arbitrum', '15', USDC_ARBITRUM)],
          sourceChainId: 42161,
          outputTargetId: 't0',
          expectedOutputAmount: '14948000',
          expectedOutputFormatted: '14.948',
        },
      ],
    },
  ],
  walletAuthorization: {
    domain: { name: 'Intent Service Execution', version: '1' },
    types: WALLET_AUTHORIZATION_TYPES,
    primaryType: WALLET_AUTHORIZATION_PRIMARY_TYPE,
    message: {
      partnerId: PARTNER_ID,
      intentSessionId: INTENT_SESSION_ID,
      attemptId: ATTEMPT_ID,
      wallet: WALLET,
      recipient: WALLET,
      executionCommitment: '0xa97dd2cbe677d6dda22dd4a01edec54ba307cd2b1f7d130707ba5a29cc019c1d',
      nonce: '0x7ab1577440dd7bedf920cb6de2f9fc6bf7ba98c78c85a3fa1f8311aac95e1759',
      expiresAt: 1772488800,
    },
  },
};

export const SUBMITTED_REQUEST_EXAMPLE = {
  submittedAt: SUBMITTED_AT_MS,
  walletAuthorization: { signature: SIGNATURE },
  chainResults: [
    { chainId: 1, bundleId: null, txHashes: [TX_ETHEREUM] },
    { chainId: 42161, txHashes: [TX_ARBITRUM] },
  ],
} satisfies SubmittedRequestDto;

const leg = (index: number, chainId: number, chain: string, amount: string, address: string) => ({
  legIndex: index,
  outputTargetId: 't0',
  provider: 'relay',
  sourceChainId: chainId,
  sourceTokens: [sourceToken(chain, amount, address)],
  outputSymbol: 'USDC',
});

export const ATTEMPT_SNAPSHOT_EXAMPLE: AttemptSnapshot = {
  apiVersion: API_VERSION,
  attemptId: ATTEMPT_ID,
  intentSessionId: INTENT_SESSION_ID,
  partnerId: PARTNER_ID,
  status: 'settled',
  currentStatus: 'settled',
  walletAddress: WALLET,
  recipient: WALLET,
  submittedAt: SUBMITTED_AT_MS,
  perChainStatus: [
    {
      chainId: 1,
      provider: 'relay',
      submitMethod: 'sendTransaction',
      atomicRequired: false,
      status: 'settled',
      txHashes: [TX_ETHEREUM],
      bundleId: null,
      legs: [
        {
          ...leg(0, 1, 'ethereum', '25', USDC_ETHEREUM),
          status: 'settled',
          txHash: TX_ETHEREUM,
          expectedOutputAmount: '24913000',
          expectedOutputFormatted: '24.913',
          sourceChainTxHash: TX_ETHEREUM,
          destinationChainTxHash: FILL_ETHEREUM,
          settledAmount: '24915210',
          settledAmountBasis: 'exact',
          errorCode: null,
          errorMessage: null,
          fees: {
            providerFees: {
              provider: 'relay',
              totalUsd: 0.062,
              lines: [
                { kind: 'gas', usd: 0.012 },
                { kind: 'app', usd: 0.05 },
              ],
            },
            serviceFee: {
              bps: 10,
              collectedBps: 20,
              chainId: 1,
              token: USDC_ETHEREUM,
              rawAmount: '25000',
              paidAs: 'offchain_balance',
            },
            partnerMarkup: {
              bps: 10,
              collectedBps: 20,
              chainId: 1,
              token: USDC_ETHEREUM,
              rawAmount: '25000',
              paidAs: 'offchain_balance',
            },
          },
        },
      ],
    },
    {
      chainId: 42161,
      provider: 'relay',
      submitMethod: 'sendTransaction',
      atomicRequired: false,
      status: 'settled',
      txHashes: [TX_ARBITRUM],
      bundleId: null,
      legs: [
        {
          ...leg(1, 42161, 'arbitrum', '15', USDC_ARBITRUM),
          status: 'settled',
          txHash: TX_ARBITRUM,
          expectedOutputAmount: '14948000',
          expectedOutputFormatted: '14.948',
          sourceChainTxHash: TX_ARBITRUM,
          destinationChainTxHash: FILL_ARBITRUM,
          settledAmount: '14950100',
          settledAmountBasis: 'exact',
          delayed: {
            since: '2026-03-02T10:00:55.000Z',
            expectedBy: '2026-03-02T10:02:07.000Z',
            explorerUrl: `https://relay.link/transaction/0x${'ab'.repeat(32)}`,
          },
        },
      ],
    },
  ],
  settledOutputs: [
    { chainId: 8453, symbol: 'USDC', amount: '24.91521', amountBasis: 'exact', txHash: FILL_ETHEREUM },
    { chainId: 8453, symbol: 'USDC', amount: '14.9501', amountBasis: 'exact', txHash: FILL_ARBITRUM },
  ],
};

/** A snapshot that has just been given evidence: the submitted response. */
export const SUBMITTED_RESPONSE_EXAMPLE: AttemptSnapshot = {
  ...ATTEMPT_SNAPSHOT_EXAMPLE,
  status: 'wallet_submitted',
  currentStatus: 'wallet_submitted',
  perChainStatus: ATTEMPT_SNAPSHOT_EXAMPLE.perChainStatus.map((chain) => ({
    ...chain,
    status: 'submitted',
    legs: chain.legs.map((entry) => ({
      ...leg(
        entry.legIndex,
        entry.sourceChainId,
        entry.sourceTokens[0].chain,
        entry.sourceTokens[0].amount,
        entry.sourceTokens[0].address,
      ),
      status: 'awaiting_source',
      txHash: null,
      expectedOutputAmount: entry.expectedOutputAmount ?? null,
      expectedOutputFormatted: entry.expectedOutputFormatted ?? null,
    })),
  })),
  settledOutputs: [],
};

const FAILED_SNAPSHOT: AttemptSnapshot = {
  ...ATTEMPT_SNAPSHOT_EXAMPLE,
  status: 'failed',
  currentStatus: 'failed',
  perChainStatus: ATTEMPT_SNAPSHOT_EXAMPLE.perChainStatus.map((chain) => ({
    ...chain,
    status: 'failed',
    legs: chain.legs.map((entry) => ({
      ...entry,
      status: 'failed',
      destinationChainTxHash: null,
      settledAmount: null,
      settledAmountBasis: null,
      errorCode: 'refunded',
      errorMessage: 'The provider refunded the deposit on the source chain.',
      refund: {
        chainId: entry.sourceChainId,
        token: entry.sourceTokens[0].address,
        amount: entry.sourceTokens[0].rawAmount,
        amountBasis: 'exact',
        txHash: entry.sourceChainId === 1 ? FILL_ETHEREUM : FILL_ARBITRUM,
        to: WALLET,
      },
    })),
  })),
  settledOutputs: [],
};

const SNAPSHOT_AT_EVENT: Record<WebhookEventKind, AttemptSnapshot> = {
  wallet_submitted: SUBMITTED_RESPONSE_EXAMPLE,
  provider_pending: {
    ...SUBMITTED_RESPONSE_EXAMPLE,
    status: 'provider_pending',
    currentStatus: 'provider_pending',
    perChainStatus: SUBMITTED_RESPONSE_EXAMPLE.perChainStatus.map((chain) => ({
      ...chain,
      status: 'confirmed',
      legs: chain.legs.map((entry) => ({ ...entry, status: 'pending', txHash: chain.txHashes[0] ?? null })),
    })),
  },
  settled: ATTEMPT_SNAPSHOT_EXAMPLE,
  failed: FAILED_SNAPSHOT,
};

/** Event ids are UUID-shaped, as the service sends them. */
const EVENT_IDS: Record<WebhookEventKind, string> = {
  wallet_submitted: '0c5b1f7e-3a2d-5e4b-8f61-2d9a4c7e1b30',
  provider_pending: '6e2d8a41-9b7c-5f03-a1d4-7c3e5b9f2a86',
  settled: 'b4a7c2e9-1f5d-5c8a-9e3b-0d6f2a8c4e71',
  failed: '3f9e6b2c-8d1a-5b47-b0c5-e2a7d4f91c68',
};

const OCCURRED_AT: Record<WebhookEventKind, string> = {
  wallet_submitted: '2026-03-02T10:00:41.120Z',
  provider_pending: '2026-03-02T10:00:55.480Z',
  settled: '2026-03-02T10:02:11.930Z',
  failed: '2026-03-02T10:31:02.004Z',
};

export function webhookEventExample(event: WebhookEventKind): WebhookEventPayload {
  return {
    ...SNAPSHOT_AT_EVENT[event],
    eventId: EVENT_IDS[event],
    event,
    occurredAt: OCCURRED_AT[event],
  };
}

export const PING_RESPONSE_EXAMPLE: PingResponse = {
  apiVersion: API_VERSION,
  ok: true,
  partnerId: PARTNER_ID,
};

export const ATTEMPT_SEARCH_REQUEST_EXAMPLE: AttemptSearchRequestBody = {
  walletAddress: WALLET,
  status: ['settled', 'failed'],
  createdFrom: '2026-03-01T00:00:00Z',
  limit: 20,
};

export const ATTEMPT_SEARCH_RESPONSE_EXAMPLE: AttemptSearchResponse = {
  apiVersion: API_VERSION,
  attempts: [
    {
      attemptId: ATTEMPT_ID,
      intentSessionId: INTENT_SESSION_ID,
      status: 'settled',
      walletAddress: WALLET,
      recipient: WALLET,
      createdAt: '2026-03-02T10:00:20.000Z',
      updatedAt: '2026-03-02T10:02:31.000Z',
      transactions: [
        { chainId: 1, txHash: TX_ETHEREUM, role: 'source' },
        { chainId: 42161, txHash: TX_ARBITRUM, role: 'source' },
        { chainId: 8453, txHash: FILL_ETHEREUM, role: 'fill' },
        { chainId: 8453, txHash: FILL_ARBITRUM, role: 'fill' },
      ],
    },
  ],
  // The cursor a search with the request example's filters gets when this attempt ends its page.
  nextCursor: encodeSearchCursor(
    {
      walletAddress: WALLET.toLowerCase(),
      recipient: null,
      statuses: ['settled', 'failed'],
      createdFrom: Date.parse('2026-03-01T00:00:00Z'),
      createdTo: null,
    },
    { createdAt: Date.parse('2026-03-02T10:00:20.000Z'), attemptId: ATTEMPT_ID },
  ),
};

export const TRANSACTION_ATTEMPT_RESPONSE_EXAMPLE: TransactionAttemptResponse = {
  ...ATTEMPT_SNAPSHOT_EXAMPLE,
  matchedTransaction: { chainId: 8453, txHash: FILL_ARBITRUM, role: 'fill' },
  otherAttemptIds: [],
};

/** Named examples of each request body, for the document and the tests. */
export const REQUEST_EXAMPLES = {
  quote: { singleTarget: QUOTE_REQUEST_EXAMPLE, multiTarget: MULTI_TARGET_QUOTE_REQUEST_EXAMPLE },
  prepare: { withWalletContext: PREPARE_REQUEST_EXAMPLE, empty: {} },
  submitted: { evidence: SUBMITTED_REQUEST_EXAMPLE },
  searchAttempts: {
    byWallet: ATTEMPT_SEARCH_REQUEST_EXAMPLE,
    nextPage: { ...ATTEMPT_SEARCH_REQUEST_EXAMPLE, cursor: ATTEMPT_SEARCH_RESPONSE_EXAMPLE.nextCursor! },
  },
} as const;
