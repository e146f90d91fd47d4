import { maxUint256, type Address } from 'viem';
import { convertByValue } from '../pricing/convert-by-value';
import { type PriceTable } from '../pricing/price-table';
import { isNative, type TokenDirectory } from '../tokens/token-directory';
import { type SandboxScenario } from './sandbox-scenarios';

/** Why a refunded transfer was not filled, in Relay's failReason vocabulary (relay-kit types/api.ts). */
const REFUND_REASON = 'SOLVER_CAPACITY_EXCEEDED';
/** Relay's refundFailReason when it gives up on a refund (docs /how-it-works/refunds: refund cannot cover gas). */
const NO_REFUND_REASON = 'AMOUNT_TOO_LOW_TO_REFUND';

/** One transfer from the provider's filler account. */
export interface PlannedTransfer {
  chainId: number;
  /** The zero address sends native ETH. */
  token: Address;
  to: Address;
  amount: bigint;
  /** Mined on purpose as a reverted transaction: more than the filler holds, with a fixed gas limit. */
  reverts: boolean;
}

/**
 * What the filler does with a deposit and what the status endpoints claim about it. `reported` is the output the
 * dialects report once filled: the promise for a fill that reverted or paid in another token (only the chain tells),
 * the real amount for short and zero fills, the bridged token for Across's failed destination action.
 */
export type SettlementPlan =
  | {
      kind: 'fill';
      transfer: PlannedTransfer;
      reported: { token: Address; amount: bigint };
      /** Reported `delayed` for the failure hold before filling (Relay only). */
      holdAs?: 'delayed';
      /** Across only: the app fee its MulticallHandler pays, sent before `transfer` (honest fills only). */
      appFee?: PlannedTransfer;
    }
  | {
      kind: 'refund';
      transfer: PlannedTransfer;
      failReason: string;
      /** Reported as a failure for the failure hold before refunding (Relay only). */
      holdAs?: 'failed';
      /**
       * Not before this chain time (unix seconds, the chain's latest block): Across's late refund (S14), which a test
       * reaches by anvil time travel. Absent: after the fill delay, as every other refund.
       */
      notBefore?: { chainId: number; at: number };
    }
  | { kind: 'fail'; failReason: string; refundFailReason: string };

export interface PlanInput {
  /** Already resolved for the provider (`scenarioFor`). */
  scenario: SandboxScenario;
  /** Refund a `normal` deposit: the refund fault, Relay's debug-force-refund, or a deposit short of its quote. */
  refund: boolean;
  failReason?: string;
  sourceChainId: number;
  depositor: Address;
  inputToken: Address;
  inputAmount: bigint;
  destinationChainId: number;
  recipient: Address;
  outputToken: Address;
  outputAmount: bigint;
  /** The quote's minimum output, in output-token base units. */
  minimumOutput: bigint;
  /**
   * Across only: the bridgeable token the deposit locked, where its MulticallHandler falls back to, and the
   * bridge leg's amount when an app fee rides on it (the handler drains all of it when its calls fail).
   */
  bridged?: { token: Address; fallbackRecipient: Address; outputAmount?: bigint };
  /** Across only: the app fee the MulticallHandler pays out of the bridge leg before draining to the recipient. */
  appFee?: { to: Address; amount: bigint };
  /** Across only: when its late refund is paid, in the origin chain's time (across-refund-timing.ts). */
  lateRefund?: { chainId: number; at: number };
  /**
   * Across only: the token its refund pays, the deposit event's input token, so WETH for a native deposit: the
   * SpokePool refunds the refund leaf's `l2TokenAddress` (across-protocol/contracts contracts/spoke-pools/SpokePool.sol
   * `_distributeRelayerRefunds`; providers review N7). Absent: the input token as the depositor paid it.
   */
  refundToken?: Address;
}

export interface PlanMarket {
  tokens: TokenDirectory;
  prices: PriceTable;
}

/** Decides, once when the deposit is indexed, how it settles; every amount is bigint. */
export function settlementPlan(market: PlanMarket, input: PlanInput): SettlementPlan {
  const refund = (holdAs?: 'failed'): SettlementPlan => ({
    kind: 'refund',
    transfer: {
      chainId: input.sourceChainId,
      token: input.refundToken ?? input.inputToken,
      to: input.depositor,
      amount: input.inputAmount,
      reverts: false,
    },
    failReason: input.failReason ?? REFUND_REASON,
    ...(holdAs ? { holdAs } : {}),
  });
  const fill = (
    delivery: Partial<PlannedTransfer> = {},
    reported: Partial<{ token: Address; amount: bigint }> = {},
    holdAs?: 'delayed',
  ): SettlementPlan => {
    const transfer: PlannedTransfer = {
      chainId: input.destinationChainId,
      token: input.outputToken,
      to: input.recipient,
      amount: input.outputAmount,
      reverts: false,
      ...delivery,
    };
    return {
      kind: 'fill',
      transfer,
      reported: { token: input.outputToken, amount: input.outputAmount, ...reported },
      ...(holdAs ? { holdAs } : {}),
    };
  };
  // Paid on honest fills only: the other fill scenarios model a provider whose report the chain contradicts.
  const withAppFee = (plan: SettlementPlan): SettlementPlan =>
    plan.kind === 'fill' && input.appFee && input.appFee.amount > 0n
      ? {
          ...plan,
          appFee: {
            chainId: input.destinationChainId,
            token: input.outputToken,
            to: input.appFee.to,
            amount: input.appFee.amount,
            reverts: false,
          },
        }
      : plan;
  switch (input.scenario) {
    case 'normal':
      return input.refund ? refund() : withAppFee(fill());
    case 'refund':
    case 'fallback':
      return refund();
    case 'cancel':
      // Cancelled on the destination first, refunded on the source after the cancel's Wormhole message
      // (mayan-finance/swap-bridge src/MayanSwift.sol cancelOrder, then refundOrder): held, the explorer says
      // CANCELED with no refund transaction yet (providers review N14).
      return refund('failed');
    case 'late-refund': {
      const plan = refund();
      return plan.kind === 'refund' && input.lateRefund ? { ...plan, notBefore: input.lateRefund } : plan;
    }
    case 'failure-then-refund':
      return refund('failed');
    case 'final-failure':
      return { kind: 'fail', failReason: REFUND_REASON, refundFailReason: NO_REFUND_REASON };
    case 'delayed':
      return withAppFee(fill({}, {}, 'delayed'));
    case 'reverted-fill':
      // A native transfer to an account cannot revert, so a native fill reverts as a WETH transfer instead.
      return fill({
        token: isNative(input.outputToken) ? market.tokens.weth(input.destinationChainId) : input.outputToken,
        amount: maxUint256,
        reverts: true,
      });
    case 'short-fill': {
      const half = input.minimumOutput / 2n;
      const amount = half > 0n ? half : 1n;
      return fill({ amount }, { amount });
    }
    case 'zero-fill':
      return fill({ amount: 0n }, { amount: 0n });
    case 'wrong-token-fill': {
      const wrong = wrongToken(market, input.destinationChainId, input.outputToken);
      return fill({
        token: wrong,
        amount: sameValue(market, input.destinationChainId, input.outputToken, input.outputAmount, wrong),
      });
    }
    case 'destination-action-failed': {
      if (!input.bridged) return fill();
      const bridged = bridgedOnDestination(
        market,
        input.sourceChainId,
        input.destinationChainId,
        input.bridged.token,
      );
      const amount = sameValue(
        market,
        input.destinationChainId,
        input.outputToken,
        input.bridged.outputAmount ?? input.outputAmount,
        bridged,
      );
      return fill(
        { token: bridged, amount, to: input.bridged.fallbackRecipient },
        { token: bridged, amount },
      );
    }
  }
}

/** USDT for USDC, USDC for anything else: a real, funded token the recipient did not ask for. */
function wrongToken(market: PlanMarket, chainId: number, outputToken: Address): Address {
  const symbol = market.tokens.find(chainId, outputToken)?.symbol;
  const wrong = market.tokens.bySymbol(chainId, symbol === 'USDC' ? 'USDT' : 'USDC');
  if (!wrong) throw new Error(`chain ${chainId} has no sandbox ${symbol === 'USDC' ? 'USDT' : 'USDC'}`);
  return wrong.address;
}

/** The destination chain's token of the same symbol as the bridged source token (WETH stays WETH). */
function bridgedOnDestination(
  market: PlanMarket,
  sourceChainId: number,
  destinationChainId: number,
  sourceToken: Address,
): Address {
  const symbol = market.tokens.find(sourceChainId, sourceToken)?.symbol;
  const token = symbol ? market.tokens.bySymbol(destinationChainId, symbol) : undefined;
  if (!token) throw new Error(`no sandbox ${symbol ?? sourceToken} on chain ${destinationChainId}`);
  return token.address;
}

/** `amount` of `from` as an equal USD value of `to`, both on `chainId`; unchanged when either has no price. */
function sameValue(market: PlanMarket, chainId: number, from: Address, amount: bigint, to: Address): bigint {
  const a = market.tokens.find(chainId, from);
  const b = market.tokens.find(chainId, to);
  const priceA = a ? market.prices[a.symbol] : undefined;
  const priceB = b ? market.prices[b.symbol] : undefined;
  if (!a || !b || !priceA || !priceB) return amount;
  return convertByValue(
    amount,
    { decimals: a.decimals, priceMicroUsd: priceA },
    { decimals: b.decimals, priceMicroUsd: priceB },
  );
}
