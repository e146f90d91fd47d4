import { PROVIDER_NAMES } from '../enums/provider-name';
import { PREPARE_LIMITS } from '../prepare/prepare-limits';
import { type PrepareRequestDto } from '../prepare/prepare-request.dto';
import { type WalletContextDto } from '../prepare/wallet-context.dto';
import { QUOTE_LIMITS } from '../quote/quote-limits';
import { type QuoteRequestDto } from '../quote/quote-request.dto';
import { type SourceInputDto } from '../quote/source-input.dto';
import { type TargetInputDto } from '../quote/target-input.dto';
import { type TargetTokenInputDto } from '../quote/target-token-input.dto';
import { type ChainResultDto } from '../submitted/chain-result.dto';
import { SUBMITTED_LIMITS } from '../submitted/submitted-limits';
import { type SubmittedRequestDto } from '../submitted/submitted-request.dto';
import { type WalletAuthorizationInputDto } from '../submitted/wallet-authorization-input.dto';
import { ACCOUNT_ADDRESS_RULE } from '../validation/is-account-address.decorator';
import { DECIMAL_STRING_RULE } from '../validation/is-decimal-string.decorator';
import { EVM_ADDRESS_RULE } from '../validation/is-evm-address.decorator';
import { RAW_AMOUNT_RULE } from '../validation/is-raw-amount.decorator';
import { JSON_LIMITS } from '../validation/json-bounds';
import { LOOKUP_LIMITS } from '../lookups/lookup-limits';
import { type AttemptSearchRequestBody } from '../lookups/lookup.types';
import { type JsonSchema, objectSchema, ref } from './json-schema';

/**
 * The request bodies, written against the request DTOs (the classes class-validator checks): one entry per DTO
 * property, optional exactly where the DTO's is. The patterns restate the validators' rules in JSON Schema; a test
 * (openapi-requests.spec.ts) checks that every body the contract accepts validates here.
 */

const Q = QUOTE_LIMITS;
const S = SUBMITTED_LIMITS;

/** Largest integer a JSON number carries exactly (Number.MAX_SAFE_INTEGER). */
const MAX_SAFE_INTEGER = 9_007_199_254_740_991;

export const PATTERNS = {
  evmAddress: '^0x[0-9a-fA-F]{40}$',
  zeroAddress: '^0x0{40}$',
  /** 1 to 2^256-1 has at most 78 digits; the numeric bound itself is stated in the description. */
  rawAmount: '^[1-9][0-9]{0,77}$',
  decimal: '^(0|[1-9][0-9]{0,29})(\\.[0-9]{1,18})?$',
  /** A decimal string with no non-zero digit ("0", "0.00"). */
  zeroDecimal: '^[0.]*$',
  txHash: '^0x[0-9a-fA-F]{64}$',
  signature: '^0x[0-9a-fA-F]{130}$',
  httpUrl: '^[hH][tT][tT][pP][sS]?://',
} as const;

const chainId: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_SAFE_INTEGER,
  description: 'EVM chain id: a positive integer (`invalid_chain_id`).',
};
const tokenAddress: JsonSchema = {
  type: 'string',
  pattern: PATTERNS.evmAddress,
  description: `Token address; the zero address denotes the chain's native asset. It ${EVM_ADDRESS_RULE} (\`invalid_token_address\`).`,
};
const decimals: JsonSchema = {
  type: 'integer',
  minimum: 0,
  maximum: Q.maxDecimals,
  description: `Token decimals, 0 to ${Q.maxDecimals} (\`invalid_decimals\`).`,
};
const symbol: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: Q.maxSymbolLength,
  description: `Token symbol, 1 to ${Q.maxSymbolLength} characters (\`invalid_symbol\`).`,
};
const decimalString = (what: string): JsonSchema => ({
  type: 'string',
  pattern: PATTERNS.decimal,
  description: `${what}: ${DECIMAL_STRING_RULE.replace(/^must be /, '')} (\`invalid_usd_value\`).`,
});
const accountAddress = (what: string, code: string): JsonSchema => ({
  type: 'string',
  pattern: PATTERNS.evmAddress,
  not: { pattern: PATTERNS.zeroAddress },
  description: `${what}. It ${ACCOUNT_ADDRESS_RULE} (\`${code}\`).`,
});
const callbackUrl: JsonSchema = {
  type: 'string',
  format: 'uri',
  pattern: PATTERNS.httpUrl,
  description:
    "An absolute http(s) URL that must exactly equal the partner's configured callback URL (`invalid_callback_url`). Webhooks only ever go to the configured URL.",
};

const sourceInput = objectSchema<SourceInputDto>(
  {
    chainId: { schema: chainId },
    address: { schema: tokenAddress },
    amount: {
      schema: {
        type: 'string',
        pattern: PATTERNS.rawAmount,
        description: `Raw amount in token base units. It ${RAW_AMOUNT_RULE} (\`invalid_amount\`). Convert display amounts without floating point.`,
      },
    },
    symbol: { schema: symbol, optional: true },
    decimals: { schema: decimals },
    usdValue: {
      schema: decimalString(
        'USD value of the amount; optional in the single-target form, required and positive on every source in the multi-target form (`usd_value_required`)',
      ),
      optional: true,
    },
  },
  {
    description:
      'One balance to consolidate. Token identity is the pair (chainId, address), addresses compared case-insensitively; two sources naming the same token are rejected (`duplicate_source`).',
    closed: true,
  },
);

const targetTokenInput = objectSchema<TargetTokenInputDto>(
  {
    address: { schema: tokenAddress },
    symbol: { schema: symbol, optional: true },
    decimals: { schema: decimals },
    priceUSD: { schema: decimalString('USD price of one whole token'), optional: true },
  },
  {
    description:
      "The token delivered to the recipient. `address` must equal the target's `address` (case-insensitively; `target_token_mismatch`).",
    closed: true,
  },
);

const targetInput = objectSchema<TargetInputDto>(
  {
    id: {
      schema: {
        type: 'string',
        minLength: 1,
        maxLength: Q.maxTargetIdLength,
        description: `Your name for this target, 1 to ${Q.maxTargetIdLength} characters, echoed as \`outputTargetId\`; default \`t<index>\`. Ids must be unique, defaults included (\`invalid_target\`).`,
      },
      optional: true,
    },
    chainId: { schema: chainId },
    address: { schema: tokenAddress },
    allocationPercent: {
      schema: {
        type: 'number',
        description:
          'Share of the portfolio USD value for this target (`invalid_allocation_percent`). Single-target form: omitted or exactly 100. Multi-target form: required, greater than 0 and at most 100, and the shares sum to 100.',
      },
      optional: true,
    },
    targetToken: { schema: ref('TargetTokenInput') },
  },
  { description: 'Where and in which token the consolidated value is delivered.', closed: true },
);

const singleTarget: JsonSchema = {
  properties: {
    target: { properties: { allocationPercent: { const: 100 } } },
  },
};
const multiTarget: JsonSchema = {
  properties: {
    targets: {
      items: {
        required: ['allocationPercent'],
        properties: { allocationPercent: { exclusiveMinimum: 0, maximum: 100 } },
      },
    },
    sources: {
      items: {
        required: ['usdValue'],
        properties: { usdValue: { not: { pattern: PATTERNS.zeroDecimal } } },
      },
    },
  },
};

const quoteRequest = objectSchema<QuoteRequestDto>(
  {
    walletAddress: {
      schema: accountAddress(
        'EVM account that signs the authorization and executes the source-chain actions',
        'invalid_wallet_address',
      ),
    },
    recipient: {
      schema: accountAddress(
        'Wallet that receives the target token; defaults to walletAddress',
        'invalid_recipient',
      ),
      optional: true,
    },
    sources: {
      schema: {
        type: 'array',
        minItems: Q.minSources,
        maxItems: Q.maxSources,
        items: ref('SourceInput'),
        description: `The balances to consolidate, ${Q.minSources} to ${Q.maxSources} (\`invalid_sources\`).`,
      },
    },
    target: {
      schema: {
        ...ref('TargetInput'),
        description: 'Single-output form. Exactly one of `target` and `targets` is present.',
      },
      optional: true,
    },
    targets: {
      schema: {
        type: 'array',
        minItems: 1,
        maxItems: Q.maxTargets,
        items: ref('TargetInput'),
        description: `Multi-output form, 1 to ${Q.maxTargets} targets (\`invalid_target\`): every target needs allocationPercent and every source a positive usdValue.`,
      },
      optional: true,
    },
    slippageBps: {
      schema: {
        type: 'integer',
        minimum: Q.minSlippageBps,
        maximum: Q.maxSlippageBps,
        default: Q.defaultSlippageBps,
        description: `Slippage tolerance in basis points, ${Q.minSlippageBps} to ${Q.maxSlippageBps}; 0 is rejected (\`invalid_slippage_bps\`).`,
      },
      optional: true,
    },
    excludeUneconomicSources: {
      schema: {
        type: 'boolean',
        default: false,
        description:
          'Leave out the sources whose gas would cost at least `uneconomicThresholdBps` of their value: they are reported in `failedSources` with `source_uneconomic`, and allocation and coverage are computed without them (`invalid_exclude_uneconomic_sources`). Absent or false: they are only flagged in `sourceGas`.',
      },
      optional: true,
    },
    uneconomicThresholdBps: {
      schema: {
        type: 'integer',
        minimum: Q.minUneconomicThresholdBps,
        maximum: Q.maxUneconomicThresholdBps,
        default: Q.defaultUneconomicThresholdBps,
        description: `Gas cost as a share of a source's value, in basis points, from which it is uneconomic: ${Q.minUneconomicThresholdBps} to ${Q.maxUneconomicThresholdBps} (\`invalid_uneconomic_threshold_bps\`).`,
      },
      optional: true,
    },
    allowPartial: {
      schema: {
        type: 'boolean',
        default: false,
        description:
          'Whether a plan covering fewer than all sources may be returned (`invalid_allow_partial`).',
      },
      optional: true,
    },
    maxWaitMs: {
      schema: {
        type: 'integer',
        minimum: Q.minMaxWaitMs,
        maximum: Q.maxMaxWaitMs,
        description: `Quote time budget in milliseconds, ${Q.minMaxWaitMs} to ${Q.maxMaxWaitMs} (\`invalid_max_wait_ms\`).`,
      },
      optional: true,
    },
    feeBps: {
      schema: {
        type: 'integer',
        minimum: 0,
        description:
          "Integrator markup in basis points on top of the base rate: a JSON integer (numeric strings are rejected) from 0 to the partner's configured maximum, 300 unless provisioned otherwise (`invalid_fee_bps`). Absent means no markup.",
      },
      optional: true,
    },
    allowedProviders: {
      schema: {
        type: 'array',
        items: ref('ProviderName'),
        description: `Per-request provider subset; omit to allow every provider enabled for the partner. \`[]\` is valid and yields no candidates; there is no \`all\` value (\`invalid_allowed_providers\`). Only ${PROVIDER_NAMES.slice(0, 3).join(', ')} currently produce external routes.`,
      },
      optional: true,
    },
    callbackUrl: { schema: callbackUrl, optional: true },
  },
  {
    description: `Body of POST /intents/quote. Exactly one of \`target\` (single-output form) and \`targets\` (multi-output form) is present (\`target_required\`, \`target_conflict\`). Unknown fields are rejected (\`unknown_field\`). The body is nested at most ${JSON_LIMITS.maxDepth} levels and holds at most ${JSON_LIMITS.maxValues} values (\`invalid_request_body\`).`,
    closed: true,
    extra: {
      oneOf: [{ required: ['target'] }, { required: ['targets'] }],
      if: { required: ['targets'], properties: { targets: { type: 'array' } } },
      then: multiTarget,
      else: singleTarget,
    },
  },
);

const walletContext = objectSchema<WalletContextDto>(
  {
    connectorName: {
      schema: {
        type: 'string',
        maxLength: PREPARE_LIMITS.maxConnectorFieldLength,
        description: 'Human-readable wallet name.',
      },
      optional: true,
    },
    connectorId: {
      schema: {
        type: 'string',
        maxLength: PREPARE_LIMITS.maxConnectorFieldLength,
        description: 'Connector identifier.',
      },
      optional: true,
    },
    walletCapabilities: {
      schema: {
        type: 'object',
        description:
          'The unmodified result of the wallet capabilities query (EIP-5792 `wallet_getCapabilities`), read immediately before the call. `{}` is valid and yields sequential `sendTransaction` actions; never claim atomic support the wallet did not report.',
      },
      optional: true,
    },
  },
  {
    description: `The wallet that will execute the chain actions (\`invalid_wallet_context\`): connector fields at most ${PREPARE_LIMITS.maxConnectorFieldLength} characters.`,
    closed: true,
  },
);

const prepareRequest = objectSchema<PrepareRequestDto>(
  {
    callbackUrl: { schema: callbackUrl, optional: true },
    walletContext: { schema: ref('WalletContext'), optional: true },
  },
  {
    description:
      'Body of POST /intents/{intentSessionId}/prepare. The body is optional: no body (or `{}`) means no wallet context, so chain actions use sequential `sendTransaction`.',
    closed: true,
  },
);

const walletAuthorizationInput = objectSchema<WalletAuthorizationInputDto>(
  {
    signature: {
      schema: {
        type: 'string',
        pattern: PATTERNS.signature,
        description:
          'The 65-byte ECDSA signature (0x followed by 130 hex characters) over the prepared `walletAuthorization` typed data, signed unchanged. Only EOA and EIP-7702 signers are supported (`contract_wallet_unsupported`).',
      },
    },
  },
  {
    description:
      'The wallet authorization signature (`invalid_wallet_authorization`). Required before reported evidence can be promoted to settlement.',
    closed: true,
  },
);

const chainResultInput = objectSchema<ChainResultDto>(
  {
    chainId: { schema: chainId },
    bundleId: {
      schema: {
        type: 'string',
        minLength: 1,
        maxLength: S.maxBundleIdLength,
        description: `The \`wallet_sendCalls\` bundle id, 1 to ${S.maxBundleIdLength} characters (\`invalid_bundle_id\`). Report it immediately; do not wait for receipt hashes.`,
      },
      optional: true,
      nullable: true,
    },
    txHashes: {
      schema: {
        type: 'array',
        maxItems: S.maxTxHashes,
        items: { type: 'string', pattern: PATTERNS.txHash },
        description: `Transaction hashes, at most ${S.maxTxHashes}, each 0x followed by 64 hex characters (\`invalid_tx_hashes\`).`,
      },
      optional: true,
    },
    quoteResults: {
      schema: {
        type: 'array',
        maxItems: S.maxQuoteResults,
        items: { type: 'object' },
        description: `Opaque objects, at most ${S.maxQuoteResults}, stored as sent (\`invalid_quote_results\`). Do not invent quoteIndex, callId or hash attribution.`,
      },
      optional: true,
    },
  },
  {
    description:
      'Evidence for one source chain: a bundle id, transaction hashes, or both (`invalid_chain_results` when neither). The chainId must be one the attempt has a chain action on (`unknown_chain`).',
    closed: true,
    extra: {
      anyOf: [
        { required: ['bundleId'], properties: { bundleId: { type: 'string' } } },
        { required: ['txHashes'], properties: { txHashes: { minItems: 1 } } },
      ],
    },
  },
);

const submittedRequest = objectSchema<SubmittedRequestDto>(
  {
    submittedAt: {
      schema: {
        type: 'number',
        minimum: 0,
        description: 'When the wallet submitted, epoch milliseconds (`invalid_submitted_at`).',
      },
      optional: true,
      nullable: true,
    },
    walletAuthorization: {
      schema: ref('WalletAuthorizationInput'),
      description:
        'The signature over the prepared authorization. Without it evidence is recorded but the attempt never reaches `settled`.',
      optional: true,
      nullable: true,
    },
    chainResults: {
      schema: {
        type: 'array',
        minItems: S.minChainResults,
        maxItems: S.maxChainResults,
        items: ref('ChainResultInput'),
        description: `One entry per source chain, ${S.minChainResults} to ${S.maxChainResults}; two entries may not share a chainId (\`invalid_chain_results\`).`,
      },
    },
  },
  {
    description:
      "Body of POST /attempts/{attemptId}/submitted: wallet execution evidence, additive and at-least-once. Persist the evidence and its Idempotency-Key before sending; new evidence uses a new body and a new key. Initial evidence must arrive before the attempt's `evidenceDeadlineAt` (`evidence_deadline_passed`).",
    closed: true,
  },
);

const isoInstant = (what: string): JsonSchema => ({
  type: 'string',
  format: 'date-time',
  description: `${what}: an ISO 8601 instant with a zone, e.g. \`2026-03-02T10:00:00Z\` (\`invalid_time_range\`).`,
});

const attemptSearchRequest = objectSchema<AttemptSearchRequestBody>(
  {
    walletAddress: {
      schema: accountAddress('The wallet that executed the attempts (any case)', 'invalid_wallet_address'),
      optional: true,
    },
    recipient: {
      schema: accountAddress('The wallet that receives the target tokens (any case)', 'invalid_recipient'),
      optional: true,
    },
    status: {
      schema: {
        description:
          'Only attempts in this status, or in one of these (a non-empty array of distinct values) (`invalid_status_filter`).',
        anyOf: [
          ref('AttemptStatus'),
          { type: 'array', items: ref('AttemptStatus'), minItems: 1, maxItems: 6, uniqueItems: true },
        ],
      },
      optional: true,
    },
    createdFrom: { schema: isoInstant('Only attempts created at or after this instant'), optional: true },
    createdTo: {
      schema: isoInstant('Only attempts created before this instant; later than createdFrom'),
      optional: true,
    },
    limit: {
      schema: {
        type: 'integer',
        minimum: 1,
        maximum: LOOKUP_LIMITS.maxLimit,
        default: LOOKUP_LIMITS.defaultLimit,
        description: `Attempts per page, 1 to ${LOOKUP_LIMITS.maxLimit}; ${LOOKUP_LIMITS.defaultLimit} when absent (\`invalid_limit\`).`,
      },
      optional: true,
    },
    cursor: {
      schema: {
        type: 'string',
        minLength: 1,
        maxLength: LOOKUP_LIMITS.maxCursorLength,
        description:
          'The `nextCursor` of the previous page, sent with the same filters; opaque (`invalid_cursor`).',
      },
      optional: true,
    },
  },
  {
    description:
      'Body of POST /attempts/search. Names walletAddress, recipient or both (`search_filter_required`); every other field narrows the search.',
    closed: true,
    extra: { anyOf: [{ required: ['walletAddress'] }, { required: ['recipient'] }] },
  },
);

export const REQUEST_SCHEMAS: Record<string, JsonSchema> = {
  AttemptSearchRequest: attemptSearchRequest,
  QuoteRequest: quoteRequest,
  SourceInput: sourceInput,
  TargetInput: targetInput,
  TargetTokenInput: targetTokenInput,
  PrepareRequest: prepareRequest,
  WalletContext: walletContext,
  SubmittedRequest: submittedRequest,
  ChainResultInput: chainResultInput,
  WalletAuthorizationInput: walletAuthorizationInput,
};
