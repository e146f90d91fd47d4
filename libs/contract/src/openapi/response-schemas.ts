import { type AttemptSnapshot } from '../attempt/attempt-snapshot.types';
import {
  type ChainExpiryReason,
  type LegDelay,
  type LegAwaitingConfirmations,
  type LegRefund,
  type PerChainStatus,
  type StatusLeg,
} from '../attempt/per-chain-status.types';
import { type SettledOutput } from '../attempt/settled-output.types';
import { type AppFeeShare, type LegFees, type ProviderFees } from '../attempt/leg-fees.types';
import {
  type AttemptSearchResponse,
  type AttemptSummary,
  type AttemptTransactionRef,
  TRANSACTION_ROLES,
  type TransactionAttemptResponse,
} from '../lookups/lookup.types';
import { type ErrorResponse, type FieldError, API_VERSION } from '../errors/error-response';
import { type PingResponse } from '../ping/ping-response.types';
import {
  type ChainAction,
  type ChainCall,
  type ChainTransaction,
  type PerLegPreview,
  type QuotePlan,
} from '../prepare/chain-action.types';
import { type PrepareResponse } from '../prepare/prepare-response.types';
import { type SourceTokenPreview } from '../prepare/source-token-preview.types';
import {
  type TypedDataField,
  type WalletAuthorizationMessage,
  type WalletAuthorizationTypedData,
  WALLET_AUTHORIZATION_PRIMARY_TYPE,
  WALLET_AUTHORIZATION_TYPES,
} from '../prepare/wallet-authorization.types';
import {
  type AllocationPlan,
  type AllocationPlanLeg,
  type SourceAllocation,
} from '../quote/allocation-plan.types';
import { type FailedSource } from '../quote/failed-source.types';
import { type QuoteResponse } from '../quote/quote-response.types';
import { type RouteEvaluationEntry, type RouteEvaluationGroup } from '../quote/route-evaluation.types';
import {
  type LegEconomicSummary,
  type LegOutputRef,
  type SelectedPlan,
  type SelectedPlanLeg,
  type SelectedPlanSummary,
} from '../quote/selected-plan.types';
import {
  type SourceGasChainTotals,
  type SourceGasEstimate,
  type SourceGasReport,
  type SourceGasTotals,
  type SourceGasTransaction,
} from '../quote/source-gas.types';
import { type Target, type TargetToken } from '../quote/target.types';
import { type WebhookEventPayload } from '../webhook/webhook-event-payload.types';
import { enumSchema, type FieldsOf, type JsonSchema, objectSchema, ref } from './json-schema';

/**
 * The response bodies, written against the response types of the contract: one entry per property, required,
 * optional and nullable exactly as the TypeScript type says. Responses are open (no `additionalProperties: false`):
 * the contract may add informational fields within version 1 and clients tolerate fields they do not know.
 */

const str = (description?: string): JsonSchema =>
  description === undefined ? { type: 'string' } : { type: 'string', description };
const int = (description?: string): JsonSchema =>
  description === undefined ? { type: 'integer' } : { type: 'integer', description };
const num = (description?: string): JsonSchema =>
  description === undefined ? { type: 'number' } : { type: 'number', description };
const bool = (description?: string): JsonSchema =>
  description === undefined ? { type: 'boolean' } : { type: 'boolean', description };
const arrayOf = (items: JsonSchema, description?: string): JsonSchema => ({
  type: 'array',
  items,
  ...(description === undefined ? {} : { description }),
});
const isoTime = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });
const apiVersion: JsonSchema = {
  type: 'string',
  const: API_VERSION,
  description: `The API major version, always \`"${API_VERSION}"\`.`,
};

// --- quote --------------------------------------------------------------------------------------------------

const targetToken = objectSchema<TargetToken>(
  {
    address: { schema: str() },
    chainId: { schema: int() },
    symbol: { schema: str() },
    decimals: { schema: int() },
    logoUrl: { schema: str(), optional: true },
    priceUSD: {
      schema: str('USD price of one whole token, as a decimal string.'),
      optional: true,
      nullable: true,
    },
  },
  { description: 'The target token, resolved.' },
);

const target = objectSchema<Target>(
  {
    id: { schema: str('The target id: as sent, or `t<index>`.') },
    chainId: { schema: int() },
    address: { schema: str() },
    allocationPercent: { schema: num('Share of the portfolio USD value; 100 in the single-target form.') },
    targetToken: { schema: ref('TargetToken') },
  },
  { description: 'A target as echoed in responses: every field resolved.' },
);

const sourceAllocation = objectSchema<SourceAllocation>(
  {
    inputTokenIndex: { schema: int("Index into the request's `sources`.") },
    chainId: { schema: int() },
    address: { schema: str() },
    symbol: { schema: str() },
    decimals: { schema: int() },
    allocatedRawAmount: { schema: str('Raw base units.') },
    allocatedAmount: { schema: str('Display units.') },
    isNoop: { schema: bool('The source already is the target token on the target chain.') },
    isSameSymbolRoute: { schema: bool() },
    logoUrl: { schema: str(), optional: true },
    allocatedUsdValue: { schema: str(), optional: true, nullable: true },
  },
  { description: 'The share of one input token assigned to one target.' },
);

const allocationPlanLeg = objectSchema<AllocationPlanLeg>(
  {
    outputTargetId: { schema: str() },
    target: { schema: ref('Target') },
    sourceAllocations: { schema: arrayOf(ref('SourceAllocation')) },
  },
  { description: 'The allocation of sources to one target.' },
);

const allocationPlan = objectSchema<AllocationPlan>(
  { legs: { schema: arrayOf(ref('AllocationPlanLeg')) } },
  { description: 'How the sources are split between the targets.' },
);

const legOutputRef = objectSchema<LegOutputRef>(
  {
    chainId: { schema: int() },
    tokenAddress: { schema: str() },
    symbol: { schema: str() },
    decimals: { schema: int() },
  },
  { description: 'The token a leg delivers.' },
);

const usdFigures = {
  totalOutputUsd: num('Output value in USD.'),
  totalFeeUsd: num('Fees in USD.'),
  totalLossUsd: num('Value loss in USD (a different concept from fees; never add them).'),
  timeEstimate: num('ETA in seconds.'),
};

const legEconomicSummary = objectSchema<LegEconomicSummary>(
  {
    expectedOutputRaw: { schema: str(), nullable: true },
    minimumOutputRaw: { schema: str(), nullable: true },
    expectedOutputAmount: {
      schema: str('Expected receive, display units, already net of fees and loss.'),
      nullable: true,
    },
    minimumOutputAmount: { schema: str('Minimum receive, display units.'), nullable: true },
    output: { schema: ref('LegOutputRef') },
    totalOutputUsd: { schema: usdFigures.totalOutputUsd, optional: true, nullable: true },
    totalFeeUsd: { schema: usdFigures.totalFeeUsd, optional: true, nullable: true },
    totalLossUsd: { schema: usdFigures.totalLossUsd, optional: true, nullable: true },
    timeEstimate: { schema: usdFigures.timeEstimate, optional: true, nullable: true },
  },
  {
    description:
      'The normalized economics of one leg. expectedOutputAmount is already net of fees and loss: never subtract them again.',
  },
);

const failedSource = objectSchema<FailedSource>(
  {
    outputTargetId: { schema: str() },
    provider: { schema: ref('ProviderName'), nullable: true },
    symbol: { schema: str() },
    address: { schema: str() },
    chainId: { schema: int() },
    reasonCode: { schema: ref('FailedSourceReasonCode') },
    reason: { schema: str('Human-readable reason.') },
    inputTokenIndex: { schema: int(), optional: true, nullable: true },
    amount: { schema: str(), optional: true, nullable: true },
    logoUrl: { schema: str(), optional: true },
  },
  {
    description:
      'A source that could not be routed. Quote-level failures are reported here, never as HTTP errors.',
  },
);

const selectedPlanLeg = objectSchema<SelectedPlanLeg>(
  {
    outputTargetId: { schema: str() },
    routeId: { schema: str() },
    provider: { schema: str() },
    target: { schema: ref('Target') },
    coveredSliceCount: { schema: int() },
    totalSliceCount: { schema: int() },
    requiredQuoteCount: { schema: int() },
    noopSliceCount: { schema: int() },
    isFullRoute: { schema: bool() },
    summary: { schema: ref('LegEconomicSummary') },
    failedSources: { schema: arrayOf(ref('FailedSource')) },
  },
  { description: 'The route chosen for one target.' },
);

const selectedPlanSummary = objectSchema<SelectedPlanSummary>(
  {
    totalOutputUsd: { schema: usdFigures.totalOutputUsd, nullable: true },
    totalFeeUsd: { schema: usdFigures.totalFeeUsd, nullable: true },
    totalLossUsd: { schema: usdFigures.totalLossUsd, nullable: true },
    timeEstimate: { schema: usdFigures.timeEstimate, nullable: true },
  },
  { description: 'Totals over the plan. Fees and loss are different concepts and are not added together.' },
);

const selectedPlan = objectSchema<SelectedPlan>(
  {
    isFullPlan: { schema: bool() },
    coveredSliceCount: { schema: int() },
    totalSliceCount: { schema: int() },
    providerSet: { schema: arrayOf(str()) },
    legs: { schema: arrayOf(ref('SelectedPlanLeg')) },
    summary: { schema: ref('SelectedPlanSummary') },
  },
  {
    description:
      'The executable plan. Show only its normalized fields: expected receive = legs[].summary.expectedOutputAmount, minimum receive = legs[].summary.minimumOutputAmount, value = summary.totalOutputUsd, fees = summary.totalFeeUsd, loss = summary.totalLossUsd, ETA = summary.timeEstimate.',
  },
);

const routeEvaluationEntry = objectSchema<RouteEvaluationEntry>(
  {
    outputTargetId: { schema: str() },
    routeId: { schema: str() },
    provider: { schema: str() },
    coveredSliceCount: { schema: int() },
    totalSliceCount: { schema: int() },
    isFullRoute: { schema: bool() },
    availability: { schema: str() },
    isSelected: { schema: bool() },
    failedSources: { schema: arrayOf(ref('FailedSource')) },
    requiredQuoteCount: { schema: int(), optional: true },
    noopSliceCount: { schema: int(), optional: true },
    rejectedQuoteCount: { schema: int(), optional: true },
    isBestReturn: { schema: bool(), optional: true },
    isFastest: { schema: bool(), optional: true },
    expectedOutputRaw: { schema: str(), optional: true, nullable: true },
    minimumOutputRaw: { schema: str(), optional: true, nullable: true },
    expectedOutputAmount: { schema: str(), optional: true, nullable: true },
    minimumOutputAmount: { schema: str(), optional: true, nullable: true },
    output: { schema: ref('LegOutputRef'), optional: true, nullable: true },
    totalOutputUsd: { schema: usdFigures.totalOutputUsd, optional: true, nullable: true },
    totalFeeUsd: { schema: usdFigures.totalFeeUsd, optional: true, nullable: true },
    totalLossUsd: { schema: usdFigures.totalLossUsd, optional: true, nullable: true },
    timeEstimate: { schema: usdFigures.timeEstimate, optional: true, nullable: true },
  },
  { description: 'One evaluated route. Informational: build no logic on it.' },
);

const routeEvaluationGroup = objectSchema<RouteEvaluationGroup>(
  {
    outputTargetId: { schema: str() },
    quoteStatus: { schema: ref('QuoteStatus') },
    selectedRouteId: { schema: str(), nullable: true },
    evaluations: { schema: arrayOf(ref('RouteEvaluationEntry')) },
  },
  { description: 'The routes evaluated for one target. Informational.' },
);

const wei = (description: string): JsonSchema => str(`${description} Wei (base-10 string).`);

const sourceGasTransaction = objectSchema<SourceGasTransaction>(
  {
    kind: {
      schema: enumSchema(
        ['approve', 'approve_reset', 'deposit', 'transfer', 'other'],
        '`approve_reset` is the `approve(spender, 0)` a USDT-style token needs first; `transfer` delivers a source that already is the target token to another recipient.',
      ),
    },
    to: { schema: str() },
    gasUnits: {
      schema: str('Gas units of this call as its own transaction, intrinsic gas included (base-10).'),
    },
    gasMethod: {
      schema: enumSchema(
        ['simulated', 'per_call_estimate'],
        "`simulated`: run as built after the chain's earlier calls (eth_simulateV1); `per_call_estimate`: the documented figure for its kind, where the chain could not simulate it.",
      ),
    },
    l1DataFeeWei: { schema: wei('The L1 data fee of this transaction on an OP-stack chain; "0" elsewhere.') },
  },
  { description: 'One transaction a source needs on its chain, in execution order.' },
);

const sourceGasEstimate = objectSchema<SourceGasEstimate>(
  {
    inputTokenIndex: { schema: int('Index of the source in the request.') },
    chainId: { schema: int() },
    address: { schema: str() },
    symbol: { schema: str() },
    status: {
      schema: enumSchema(
        ['estimated', 'unavailable'],
        '`unavailable`: the chain could not be read; `reason` says why and the gas figures are null.',
      ),
    },
    reason: { schema: str(), nullable: true },
    transactions: { schema: arrayOf(ref('SourceGasTransaction')) },
    gasUnits: { schema: str('Sum over the transactions.'), nullable: true },
    baseFeePerGasWei: { schema: wei("The chain's latest base fee per gas (EIP-1559)."), nullable: true },
    priorityFeePerGasWei: {
      schema: wei("The priority tip per gas the chain's node suggests."),
      nullable: true,
    },
    l1DataFeeWei: { schema: wei('Sum of the L1 data fees.'), nullable: true },
    costNativeRaw: {
      schema: str("gasUnits × (base fee + tip) + L1 data fee, in the native token's base units."),
      nullable: true,
    },
    nativeSymbol: { schema: str() },
    nativePriceUsd: { schema: num('USD per whole native token.'), nullable: true },
    nativePriceSource: {
      schema: str('`request_source`, `request_target` or `provider:<name>`.'),
      nullable: true,
    },
    costUsd: { schema: num(), nullable: true },
    valueUsd: { schema: num("The source's value."), nullable: true },
    valueSource: { schema: str('`request` (its usdValue) or `provider:<name>`.'), nullable: true },
    netValueUsd: {
      schema: num('valueUsd − costUsd (negative when gas costs more than the source).'),
      nullable: true,
    },
    costShareBps: {
      schema: int('Gas cost ÷ value in basis points (exact in wei for a native source).'),
      nullable: true,
    },
    uneconomic: {
      schema: bool('costShareBps ≥ thresholdBps; null when the source or its gas could not be priced.'),
      nullable: true,
    },
    excluded: {
      schema: bool(
        'Left out at excludeUneconomicSources (also listed in failedSources as `source_uneconomic`).',
      ),
    },
  },
  { description: "What one source costs the user's wallet in gas on its chain, and its value net of it." },
);

const sourceGasTotals = objectSchema<SourceGasTotals>(
  {
    costUsd: {
      schema: num('Over the routed sources; null when any of them could not be priced.'),
      nullable: true,
    },
    valueUsd: { schema: num(), nullable: true },
    netValueUsd: { schema: num(), nullable: true },
    perChain: { schema: arrayOf(ref('SourceGasChainTotals')) },
    uneconomicSourceCount: { schema: int() },
    excludedSourceCount: { schema: int() },
  },
  { description: 'Sums over the routed sources (excluded ones not counted).' },
);

const sourceGasChainTotals = objectSchema<SourceGasChainTotals>(
  {
    chainId: { schema: int() },
    nativeSymbol: { schema: str() },
    transactionCount: { schema: int('Transactions when sent one by one (`sendTransaction`).') },
    gasUnits: { schema: str() },
    costNativeRaw: { schema: str() },
    atomicBatchGasUnits: {
      schema: str(
        "As one atomic `wallet_sendCalls` batch: the same calls with the 21 000 intrinsic gas paid once (the wallet's own batching code not counted).",
      ),
    },
    atomicBatchCostNativeRaw: { schema: str() },
  },
  { description: "One source chain's figures for the wallet as a whole." },
);

const sourceGasReport = objectSchema<SourceGasReport>(
  {
    thresholdBps: { schema: int("The uneconomic threshold applied (the request's, or the default 5000).") },
    excludeUneconomicSources: { schema: bool() },
    sources: { schema: arrayOf(ref('SourceGasEstimate')) },
    totals: { schema: ref('SourceGasTotals') },
  },
  {
    description:
      "Source economics (an addition to v1): per routed source, the transactions its chain actions need, their gas, the fee per gas the chain asks and the source's value net of it. docs/source-economics.md.",
  },
);

const quoteResponse = objectSchema<QuoteResponse>(
  {
    apiVersion: { schema: apiVersion },
    quoteStatus: { schema: ref('QuoteStatus') },
    intentSessionId: { schema: str('The intent session this quote created; prepare consumes it.') },
    expiresAt: isoField('Deadline for calling prepare.'),
    coverageMode: { schema: ref('CoverageMode') },
    allocationPlan: { schema: ref('AllocationPlan') },
    selectedPlan: { schema: ref('SelectedPlan'), nullable: true },
    failedSources: { schema: arrayOf(ref('FailedSource')) },
    routeEvaluations: {
      schema: arrayOf(
        ref('RouteEvaluationGroup'),
        'Informational; do not build logic on provider-specific data here.',
      ),
    },
    sourceGas: { schema: ref('SourceGasReport'), optional: true },
  },
  { description: '200 of POST /intents/quote.' },
);

function isoField(description: string): { schema: JsonSchema } {
  return { schema: isoTime(`${description} ISO 8601.`) };
}

// --- prepare ------------------------------------------------------------------------------------------------

const chainCallFields: FieldsOf<ChainCall> = {
  to: { schema: str() },
  data: { schema: str('Opaque calldata: submit the returned bytes exactly, never construct them.') },
  value: { schema: str('Native value in wei, base-10.') },
  callId: { schema: str('`chain:<chainId>:call:<callIndex>`.') },
  callIndex: { schema: int() },
  quoteIndex: { schema: int() },
  gas: { schema: str(), optional: true, nullable: true },
};

const chainCall = objectSchema<ChainCall>(chainCallFields, {
  description: 'One call of a `wallet_sendCalls` batch.',
});

const chainTransaction = objectSchema<ChainTransaction>(
  { chainId: { schema: int() }, ...chainCallFields },
  { description: 'A ChainCall sent on its own with `sendTransaction`, in order.' },
);

const quotePlan = objectSchema<QuotePlan>(
  {
    provider: { schema: str() },
    callCount: { schema: int() },
    callStart: { schema: int() },
    quoteIndex: { schema: int() },
    outputTargetId: { schema: str() },
    transactionCount: { schema: int() },
    primaryCallIndex: { schema: int(), optional: true, nullable: true },
    sourceTokenCount: { schema: int(), optional: true },
  },
  { description: 'Which calls of a chain action belong to one provider quote.' },
);

const sourceTokenPreview = objectSchema<SourceTokenPreview>(
  {
    chain: { schema: str() },
    amount: { schema: str('Display units.') },
    symbol: { schema: str() },
    address: { schema: str() },
    rawAmount: { schema: str('Raw base units.') },
    logoUrl: { schema: str(), optional: true },
    networkLogo: { schema: str(), optional: true },
    usdValue: { schema: str(), optional: true, nullable: true },
  },
  { description: 'A source token of a leg, for display.' },
);

const perLegPreview = objectSchema<PerLegPreview>(
  {
    legIndex: { schema: int() },
    provider: { schema: str() },
    outputSymbol: { schema: str() },
    sourceTokens: { schema: arrayOf(ref('SourceTokenPreview')) },
    sourceChainId: { schema: int() },
    outputTargetId: { schema: str() },
    expectedOutputAmount: {
      schema: str('Expected output, raw base units of the output token.'),
      nullable: true,
    },
    expectedOutputFormatted: { schema: str('Expected output, display units.'), nullable: true },
    expectedOutputUsd: { schema: str('Expected output value in USD.'), optional: true, nullable: true },
  },
  { description: 'What one leg of the chain action delivers, for display.' },
);

const chainAction = objectSchema<ChainAction>(
  {
    chainId: { schema: int() },
    provider: { schema: str() },
    submitMethod: { schema: ref('SubmitMethod') },
    atomicRequired: { schema: bool() },
    calls: {
      schema: arrayOf(ref('ChainCall'), 'Set for `wallet_sendCalls`, else null.'),
      nullable: true,
    },
    transactions: {
      schema: arrayOf(ref('ChainTransaction'), 'Set for `sendTransaction` (send in order), else null.'),
      nullable: true,
    },
    transactionCount: { schema: int() },
    quoteCount: { schema: int() },
    quotePlans: { schema: arrayOf(ref('QuotePlan')) },
    perLegPreview: { schema: arrayOf(ref('PerLegPreview')) },
  },
  { description: 'What the wallet executes on one source chain, exactly as returned.' },
);

const typedDataField = objectSchema<TypedDataField>(
  { name: { schema: str() }, type: { schema: str() } },
  { description: 'One field of an EIP-712 struct type.' },
);

const walletAuthorizationMessage = objectSchema<WalletAuthorizationMessage>(
  {
    partnerId: { schema: str() },
    intentSessionId: { schema: str() },
    attemptId: { schema: str() },
    wallet: { schema: str('address') },
    recipient: { schema: str() },
    executionCommitment: { schema: str('bytes32, 0x-prefixed hex.') },
    nonce: { schema: str('bytes32, 0x-prefixed hex.') },
    expiresAt: {
      schema: int(
        "uint256, Unix seconds: the authorization's own validity, much longer than the attempt's expiresAt.",
      ),
    },
  },
  { description: 'The authorization message.' },
);

const walletAuthorizationDomain = objectSchema<WalletAuthorizationTypedData['domain']>(
  { name: { schema: str() }, version: { schema: str() } },
  {
    description:
      'The EIP-712 domain: only `name` and `version`. Derive the EIP712Domain type from exactly these fields; adding a chain id or verifying contract produces a rejected signature.',
  },
);

const walletAuthorizationTypedData = objectSchema<WalletAuthorizationTypedData>(
  {
    domain: { schema: walletAuthorizationDomain },
    types: {
      schema: {
        type: 'object',
        additionalProperties: arrayOf(ref('TypedDataField')),
        description: `The struct types, without EIP712Domain. Today: \`${WALLET_AUTHORIZATION_PRIMARY_TYPE}\`.`,
        examples: [WALLET_AUTHORIZATION_TYPES],
      },
    },
    primaryType: {
      schema: {
        type: 'string',
        description: 'The execution-authorization type name; sign whatever the response returns.',
        examples: [WALLET_AUTHORIZATION_PRIMARY_TYPE],
      },
    },
    message: { schema: ref('WalletAuthorizationMessage') },
  },
  {
    description:
      'EIP-712 typed data the wallet signs unchanged (`domain`, `types`, `primaryType`, `message`); the 65-byte signature is reported with the evidence.',
  },
);

const prepareResponse = objectSchema<PrepareResponse>(
  {
    apiVersion: { schema: apiVersion },
    attemptId: { schema: str() },
    intentSessionId: { schema: str() },
    status: {
      schema: {
        ...ref('AttemptStatus'),
        description:
          '`prepared` on the first call; a replay returns the current status, and only `prepared` may execute: re-running the chain actions of a replayed attempt spends the funds twice.',
      },
    },
    expiresAt: isoField('End of the signable window (30 s): gate the Execute action on it.'),
    evidenceDeadlineAt: {
      schema: isoTime('Initial evidence must be reported before this, typically about 15 minutes. ISO 8601.'),
      optional: true,
    },
    chainActions: { schema: arrayOf(ref('ChainAction')) },
    walletAuthorization: { schema: ref('WalletAuthorizationTypedData'), optional: true, nullable: true },
  },
  { description: '200 of POST /intents/{intentSessionId}/prepare.' },
);

// --- attempt ------------------------------------------------------------------------------------------------

const legRefund = objectSchema<LegRefund>(
  {
    chainId: { schema: int(), nullable: true },
    token: { schema: str('The zero address for the native currency.'), nullable: true },
    amount: { schema: str('Raw base units of `token`, base 10.'), nullable: true },
    amountBasis: { schema: ref('AmountBasis'), nullable: true },
    txHash: { schema: str(), nullable: true },
    to: { schema: str('The account paid.'), nullable: true },
  },
  {
    description:
      'Where the funds of a refunded leg (or one whose destination action failed) went. A field neither the provider nor the chain could tell is null.',
  },
);

const legDelay = objectSchema<LegDelay>(
  {
    since: { schema: isoTime('The leg has been under way since (its deposit confirmed). ISO 8601.') },
    expectedBy: { schema: isoTime("When the provider's own figure expected the fill. ISO 8601.") },
    explorerUrl: { schema: str("The provider's public explorer page for the leg."), nullable: true },
  },
  { description: "Present once a leg ran past its provider's expected fill time; kept after the leg ends." },
);

const legAwaitingConfirmations = objectSchema<LegAwaitingConfirmations>(
  {
    destinationChainTxHash: { schema: str('The fill transaction on the target chain.') },
    blockNumber: { schema: str('The block the fill was seen in, base 10.') },
    settledAmount: { schema: str('What the fill delivers to the recipient, raw base units.') },
    seenAt: { schema: isoTime('When the fill was first seen in that block. ISO 8601.') },
  },
  {
    description:
      "Present only while the leg's fill is on chain but not yet final under the target chain's confirmation policy (a number of blocks, or its safe or finalized block); the leg is not settled until it is.",
  },
);

const providerFees = objectSchema<ProviderFees>(
  {
    provider: { schema: str() },
    totalUsd: {
      schema: num('The fee total the provider quoted, USD; null when it gave none.'),
      nullable: true,
    },
    lines: {
      schema: arrayOf(
        {
          type: 'object',
          required: ['kind', 'usd'],
          properties: { kind: str('`provider`, `app`, `gas`, `swap` or `other`.'), usd: num() },
        },
        'The non-zero fee lines by kind, as the provider quoted them.',
      ),
    },
  },
  { description: "The provider's own fees for the leg, as it quoted them when the attempt was prepared." },
);

const appFeeShare = objectSchema<AppFeeShare>(
  {
    bps: { schema: int('The rate asked of the provider for this share, basis points of the input.') },
    collectedBps: {
      schema: int('The rate the provider charges for the whole app fee (service fee + markup); some cap it.'),
    },
    chainId: { schema: int() },
    token: { schema: str("The leg's source token (the zero address for the native currency).") },
    rawAmount: {
      schema: str(
        'Raw base units of `token`, base 10: input × bps / 10 000 × collectedBps / (service + markup bps), rounded down.',
      ),
    },
    paidAs: {
      schema: str(
        'How the provider pays the app fee out: `offchain_balance`, `destination_transfer`, `source_transfer`.',
      ),
      nullable: true,
    },
  },
  { description: 'One share of the app fee the provider takes out of the leg input.' },
);

const legFees = objectSchema<LegFees>(
  {
    providerFees: { schema: ref('ProviderFees'), nullable: true },
    serviceFee: { schema: ref('AppFeeShare'), nullable: true },
    partnerMarkup: { schema: ref('AppFeeShare'), nullable: true },
  },
  {
    description:
      "Additive: the leg's fees as quoted when the attempt was prepared: the provider's own fees, the service fee and the partner's markup (owed to the partner off-chain). Absent on attempts prepared before it was recorded.",
  },
);

const statusLeg = objectSchema<StatusLeg>(
  {
    legIndex: { schema: int() },
    outputTargetId: { schema: str() },
    provider: { schema: str() },
    sourceChainId: { schema: int() },
    sourceTokens: { schema: arrayOf(ref('SourceTokenPreview')) },
    outputSymbol: { schema: str() },
    status: { schema: ref('LegStatus') },
    txHash: {
      schema: str(
        'The confirmed source transaction that executed the deposit (or its approval, until then).',
      ),
      nullable: true,
    },
    expectedOutputAmount: {
      schema: str('Expected output, raw base units of the output token.'),
      optional: true,
      nullable: true,
    },
    expectedOutputFormatted: {
      schema: str('Expected output, display units.'),
      optional: true,
      nullable: true,
    },
    expectedOutputUsd: { schema: str('Expected output value in USD.'), optional: true, nullable: true },
    sourceChainTxHash: {
      schema: str('The source transaction of the deposit.'),
      optional: true,
      nullable: true,
    },
    destinationChainTxHash: { schema: str('The fill on the target chain.'), optional: true, nullable: true },
    settledAmount: {
      schema: str('What reached the recipient, raw base units (also a short fill).'),
      optional: true,
      nullable: true,
    },
    settledAmountBasis: { schema: ref('AmountBasis'), optional: true, nullable: true },
    deliveredToken: {
      schema: str(
        'Present only when the settled fill delivered another token than the target: the zero address (the native currency) for a WETH target the provider paid as ETH (Across, to an EOA or an EIP-7702 wallet). settledAmount is in its base units.',
      ),
      optional: true,
    },
    errorCode: { schema: ref('LegErrorCode'), optional: true, nullable: true },
    errorMessage: { schema: str(), optional: true, nullable: true },
    trackingContext: {
      schema: { type: 'object', description: 'Provider-specific tracking data. Informational.' },
      optional: true,
      nullable: true,
    },
    refund: { schema: ref('LegRefund'), optional: true, nullable: true },
    delayed: { schema: ref('LegDelay'), optional: true, nullable: true },
    followedUntil: {
      schema: isoTime(
        "The tracking limit passed while the leg's provider could still fill or refund its deposit: the leg (and the attempt) stay open until the provider acts or until this time, when it ends settlement_timeout. ISO 8601.",
      ),
      optional: true,
      nullable: true,
    },
    fees: { schema: ref('LegFees'), optional: true, nullable: true },
    awaitingConfirmations: { schema: ref('LegAwaitingConfirmations'), optional: true, nullable: true },
  },
  {
    description: 'One leg: one source on one chain delivering to one target. Settlement is reported per leg.',
  },
);

const perChainStatus = objectSchema<PerChainStatus>(
  {
    chainId: { schema: int() },
    provider: { schema: str() },
    submitMethod: { schema: ref('SubmitMethod') },
    atomicRequired: { schema: bool() },
    status: { schema: ref('ChainStatus') },
    txHashes: { schema: arrayOf(str(), 'Every hash reported for the chain, in the order first reported.') },
    bundleId: { schema: str('The latest bundle id reported.'), nullable: true },
    legs: { schema: arrayOf(ref('StatusLeg')) },
    expiryReason: { schema: ref('ChainExpiryReason'), optional: true },
  },
  { description: 'The status of one source chain of the attempt.' },
);

const chainExpiryReason = objectSchema<ChainExpiryReason>(
  {
    code: {
      schema: str(
        'Open set: clients tolerate unknown values. `ambiguous_source_transaction`: the wallet executed the prepared calls in a transaction another open attempt of the same wallet could own too, and nobody reported it for this attempt.',
      ),
    },
    message: { schema: str() },
    txHashes: {
      schema: arrayOf(str(), "The wallet's transactions on this chain that executed the prepared calls."),
    },
  },
  {
    description:
      'Additive: present only on a chain of an expired attempt whose wallet executed the prepared calls in a transaction that could belong to another of its attempts (ADR 0009); report the hash with POST submitted before evidenceDeadlineAt to have it counted.',
  },
);

const settledOutput = objectSchema<SettledOutput>(
  {
    chainId: { schema: int() },
    symbol: { schema: str() },
    amount: { schema: str('Decimal string in display units.') },
    amountBasis: { schema: ref('AmountBasis') },
    txHash: { schema: str() },
  },
  { description: 'What reached the recipient on one chain.' },
);

const snapshotFields: FieldsOf<AttemptSnapshot> = {
  apiVersion: { schema: apiVersion },
  attemptId: { schema: str() },
  intentSessionId: { schema: str() },
  partnerId: { schema: str() },
  status: { schema: ref('AttemptStatus') },
  currentStatus: { schema: { ...ref('AttemptStatus'), description: 'Always equal to `status`.' } },
  walletAddress: { schema: str() },
  recipient: { schema: str() },
  submittedAt: {
    schema: int('Epoch milliseconds of the first accepted evidence; null until evidence was reported.'),
    nullable: true,
  },
  perChainStatus: { schema: arrayOf(ref('PerChainStatus')) },
  settledOutputs: { schema: arrayOf(ref('SettledOutput')) },
};

const attemptSnapshot = objectSchema<AttemptSnapshot>(snapshotFields, {
  description:
    'The canonical attempt status: the body of GET status and of the submitted response, and the base of every webhook. `settled` means the target token is in the recipient wallet.',
});

// --- lookups ------------------------------------------------------------------------------------------------

const attemptTransactionRef = objectSchema<AttemptTransactionRef>(
  {
    chainId: { schema: int() },
    txHash: { schema: str('Lowercase.') },
    role: {
      schema: enumSchema(
        TRANSACTION_ROLES,
        "`source`: a source transaction reported as evidence; `fill`: a leg's fill on the target chain; `refund`: a leg's refund.",
      ),
    },
  },
  { description: 'A transaction an attempt knows, and how.' },
);

const attemptSummary = objectSchema<AttemptSummary>(
  {
    attemptId: { schema: str() },
    intentSessionId: { schema: str() },
    status: { schema: ref('AttemptStatus') },
    walletAddress: { schema: str() },
    recipient: { schema: str() },
    createdAt: { schema: isoTime('When prepare created the attempt. ISO 8601.') },
    updatedAt: { schema: isoTime("The time of the attempt's latest recorded event. ISO 8601.") },
    transactions: { schema: arrayOf(ref('AttemptTransactionRef'), 'In the order the attempt learnt them.') },
  },
  { description: 'One attempt in a search page; GET status gives its whole snapshot.' },
);

const attemptSearchResponse = objectSchema<AttemptSearchResponse>(
  {
    apiVersion: { schema: apiVersion },
    attempts: { schema: arrayOf(ref('AttemptSummary'), 'Newest first (createdAt, then attemptId).') },
    nextCursor: {
      schema: str('Send it as `cursor`, with the same filters, for the next page; null on the last page.'),
      nullable: true,
    },
  },
  { description: '200 of POST /attempts/search.' },
);

const transactionAttemptResponse = objectSchema<TransactionAttemptResponse>(
  {
    ...snapshotFields,
    matchedTransaction: { schema: ref('AttemptTransactionRef') },
    otherAttemptIds: {
      schema: arrayOf(str(), 'Your other attempts that know the same hash, newest first; usually empty.'),
    },
  },
  {
    description:
      '200 of GET /transactions/{chainId}/{txHash}/attempt: the attempt snapshot, and how it knows the hash.',
  },
);

const webhookEvent = objectSchema<WebhookEventPayload>(
  {
    ...snapshotFields,
    eventId: {
      schema: str(
        'Unique per event, identical on every retry and redelivery; equals the X-Service-Event-Id header. Deduplicate on it.',
      ),
    },
    event: { schema: ref('WebhookEventKind') },
    occurredAt: { schema: isoTime('Time of the lifecycle change, not of the delivery. ISO 8601.') },
  },
  {
    description:
      'A webhook body: the attempt snapshot as it stood right after the event, plus the event metadata.',
  },
);

// --- ping and errors ----------------------------------------------------------------------------------------

const pingResponse = objectSchema<PingResponse>(
  {
    apiVersion: { schema: apiVersion },
    ok: { schema: { type: 'boolean', const: true } },
    partnerId: { schema: str('The authenticated partner.') },
  },
  { description: '200 of GET /ping: proves authentication and connectivity.' },
);

const fieldError = objectSchema<FieldError>(
  {
    code: { schema: ref('ErrorCode') },
    field: {
      schema: str('JSON path of the rejected field, for example `sources[2].amount`; empty for the body.'),
    },
    message: { schema: str() },
  },
  { description: 'One rejected field.' },
);

const errorResponse = objectSchema<ErrorResponse>(
  {
    apiVersion: { schema: apiVersion },
    error: { schema: str('The HTTP reason phrase, for example `Bad Request`.') },
    code: { schema: ref('ErrorCode') },
    message: { schema: str('Human-readable; do not parse it.') },
    path: { schema: str('The request path.') },
    details: {
      schema: arrayOf(
        ref('FieldError'),
        "Informational: one entry per rejected field, most important first (`code` is the first entry's).",
      ),
      optional: true,
    },
    requestId: {
      schema: str("The request's id, the same as the `X-Request-Id` header: quote it to support."),
      optional: true,
    },
  },
  { description: 'The body of every error response. Branch on `code`.' },
);

export const RESPONSE_SCHEMAS: Record<string, JsonSchema> = {
  PingResponse: pingResponse,
  QuoteResponse: quoteResponse,
  AllocationPlan: allocationPlan,
  AllocationPlanLeg: allocationPlanLeg,
  SourceAllocation: sourceAllocation,
  Target: target,
  TargetToken: targetToken,
  SelectedPlan: selectedPlan,
  SelectedPlanLeg: selectedPlanLeg,
  SelectedPlanSummary: selectedPlanSummary,
  LegEconomicSummary: legEconomicSummary,
  LegOutputRef: legOutputRef,
  FailedSource: failedSource,
  SourceGasReport: sourceGasReport,
  SourceGasEstimate: sourceGasEstimate,
  SourceGasTransaction: sourceGasTransaction,
  SourceGasTotals: sourceGasTotals,
  SourceGasChainTotals: sourceGasChainTotals,
  RouteEvaluationGroup: routeEvaluationGroup,
  RouteEvaluationEntry: routeEvaluationEntry,
  PrepareResponse: prepareResponse,
  ChainAction: chainAction,
  ChainCall: chainCall,
  ChainTransaction: chainTransaction,
  QuotePlan: quotePlan,
  PerLegPreview: perLegPreview,
  SourceTokenPreview: sourceTokenPreview,
  WalletAuthorizationTypedData: walletAuthorizationTypedData,
  WalletAuthorizationMessage: walletAuthorizationMessage,
  TypedDataField: typedDataField,
  AttemptSnapshot: attemptSnapshot,
  PerChainStatus: perChainStatus,
  ChainExpiryReason: chainExpiryReason,
  StatusLeg: statusLeg,
  LegRefund: legRefund,
  LegDelay: legDelay,
  LegAwaitingConfirmations: legAwaitingConfirmations,
  SettledOutput: settledOutput,
  LegFees: legFees,
  ProviderFees: providerFees,
  AppFeeShare: appFeeShare,
  AttemptSearchResponse: attemptSearchResponse,
  AttemptSummary: attemptSummary,
  AttemptTransactionRef: attemptTransactionRef,
  TransactionAttemptResponse: transactionAttemptResponse,
  WebhookEvent: webhookEvent,
  ErrorResponse: errorResponse,
  FieldError: fieldError,
};
