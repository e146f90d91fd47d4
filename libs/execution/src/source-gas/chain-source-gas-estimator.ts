import { type ChainRegistry } from '@svc/chains';
import { type SourceGasTransaction, type SourceGasTransactionKind } from '@svc/contract';
import {
  type SourceGasEstimator,
  type SourceGasFigures,
  SourceGasTimeoutError,
  unavailableSourceGas,
  withBudget,
} from '@svc/domain';
import { type Address, encodeAbiParameters, type Hex } from 'viem';
import { chainCallsWith, planChainCalls, type PlannedChainCalls } from '../chain-actions/build-chain-actions';
import { approvalNeeds } from '../chain-actions/approval-needs';
import { approvalsFromZero } from '../chain-actions/plan-approvals';
import { legTargets } from '../chain-actions/chain-actions-input';
import { collectChainWork, type ChainWork } from '../chain-actions/collect-chain-work';
import { type DraftCall } from '../chain-actions/draft-call';
import { ChainFeeDataCache, type ChainFeeData } from './chain-fee-data';
import { OP_STACK_CHAIN_IDS } from './op-stack-l1-fee';
import { perCallGas } from './per-call-gas';
import { simulateChainCalls } from './simulate-chain-calls';
import { transactionKind } from './transaction-kind';

/** How long one chain's reads and simulation may take before its sources are reported `unavailable`. */
export const CHAIN_GAS_BUDGET_MS = 1_500;

export interface SourceGasOptions {
  /** Per chain (default CHAIN_GAS_BUDGET_MS). */
  chainBudgetMs?: number;
  /** How long one chain's fee data is reused (default 1 000 ms). */
  feeDataMaxAgeMs?: number;
  /** Chains charging an OP-stack L1 data fee (default OP_STACK_CHAIN_IDS). */
  l1DataFeeChainIds?: ReadonlySet<number>;
}

/**
 * The quote's SourceGasEstimator (docs/source-economics.md): per source chain, the calls prepare would build now
 * (the same planning: allowances read, exact approvals, the USDT-style reset, the provider's calls byte for byte, the
 * no-op transfers), simulated in order from the wallet in one eth_simulateV1 per chain, priced at the chain's current
 * base fee plus tip (cached per chain), plus the L1 data fee on OP-stack chains; then summed per source.
 */
export class ChainSourceGasEstimator implements SourceGasEstimator {
  private readonly chains: ChainRegistry;
  private readonly fees: ChainFeeDataCache;
  private readonly l1Chains: ReadonlySet<number>;

  constructor(chains: ChainRegistry, options: SourceGasOptions = {}) {
    // A chain's reads start together (its allowances, its fee data): one JSON-RPC batch each, not one HTTP request.
    this.chains = chains.batched();
    this.fees = new ChainFeeDataCache(options.feeDataMaxAgeMs);
    this.l1Chains = options.l1DataFeeChainIds ?? OP_STACK_CHAIN_IDS;
    this.chainBudgetMs = options.chainBudgetMs ?? CHAIN_GAS_BUDGET_MS;
  }

  private readonly chainBudgetMs: number;

  nativeSymbol(chainId: number): string | null {
    return this.chains.has(chainId) ? this.chains.config(chainId).nativeSymbol : null;
  }

  async estimate(input: Parameters<SourceGasEstimator['estimate']>[0]): Promise<SourceGasFigures[]> {
    const { request } = input;
    const wallet = request.walletAddress as Address;
    const work = collectChainWork({
      wallet,
      recipient: request.recipient as Address,
      legs: input.legs,
      targets: legTargets(request, input.legs),
      sources: request.sources,
      chainName: (chainId) => `chain ${chainId}`,
      walletCapabilities: undefined,
    });
    const perChain = await Promise.all(work.map((w) => this.estimateChain(w, wallet)));
    return perChain.flat().sort((a, b) => a.inputTokenIndex - b.inputTokenIndex);
  }

  private async estimateChain(work: ChainWork, wallet: Address): Promise<SourceGasFigures[]> {
    const sourceIndexes = [
      ...new Set([...work.slices.map((s) => s.sourceIndex), ...work.noops.map((n) => n.sourceIndex)]),
    ];
    if (!this.chains.has(work.chainId)) {
      return sourceIndexes.map((i) =>
        unavailableSourceGas(i, work.chainId, '', `chain ${work.chainId} is not configured`),
      );
    }
    const nativeSymbol = this.chains.config(work.chainId).nativeSymbol;
    try {
      return await withBudget(this.readChain(work, wallet, sourceIndexes, nativeSymbol), this.chainBudgetMs);
    } catch (error) {
      const reason =
        error instanceof SourceGasTimeoutError
          ? `chain ${work.chainId} did not answer within ${this.chainBudgetMs} ms`
          : `chain ${work.chainId} could not be read: ${(error as Error).name}`;
      return sourceIndexes.map((i) => unavailableSourceGas(i, work.chainId, nativeSymbol, reason));
    }
  }

  private async readChain(
    work: ChainWork,
    wallet: Address,
    sourceIndexes: readonly number[],
    nativeSymbol: string,
  ): Promise<SourceGasFigures[]> {
    const client = this.chains.client(work.chainId);
    const l1DataFee = this.l1Chains.has(work.chainId);
    // One round trip in the usual case (a wallet with no allowance yet for any pair): the calls planned as from zero
    // allowances are simulated right after a block that reads those allowances, beside the fee data (one JSON-RPC
    // batch). Only when an allowance turns out non-zero are the calls planned as prepare would (planApprovals reads
    // them, and may need a reset) and simulated again.
    const needs = approvalNeeds(work.slices.map((slice) => ({ calls: slice.stored, amount: slice.amount })));
    const fromZero = flatten(chainCallsWith(work, approvalsFromZero(needs, work.slices.length)));
    const feeRead = this.fees.read(work.chainId, client);
    // The transactions' bytes (for the L1 data fee) need fee fields: the last ones read serve, a byte at most off.
    const sizing = this.fees.peek(work.chainId) ?? (await feeRead);
    const simulate = (calls: typeof fromZero, reads?: { to: string; data: Hex }[]) =>
      simulateChainCalls(client, {
        chainId: work.chainId,
        wallet,
        calls: calls.map((c) => c.call),
        gasGuess: (i) => calls[i].guess,
        l1DataFee,
        ...maxFees(sizing),
        reads,
      });
    const [first, fee] = await Promise.all([
      simulate(
        fromZero,
        needs.map((need) => ({ to: need.token, data: allowanceCall(wallet, need.spender) })),
      ),
      feeRead,
    ]);
    const zero = first.reads.every((read) => read !== null && BigInt(read) === 0n);
    const calls = zero ? fromZero : flatten(await planChainCalls(work, wallet, this.chains));
    const simulated = zero ? first.calls : (await simulate(calls)).calls;
    const transactions = calls.map(
      (c, i): SourceGasTransaction & { sourceIndex: number; gas: bigint; l1: bigint } => {
        const gas = simulated[i].gasUsed ?? c.guess;
        const l1 = simulated[i].l1DataFee ?? 0n;
        return {
          sourceIndex: c.sourceIndex,
          kind: c.kind,
          to: c.call.to,
          gasUnits: gas.toString(),
          gasMethod: simulated[i].gasUsed === null ? 'per_call_estimate' : 'simulated',
          l1DataFeeWei: l1.toString(),
          gas,
          l1,
        };
      },
    );
    return sourceIndexes.map((index) => {
      const own = transactions.filter((t) => t.sourceIndex === index);
      const gasUnits = own.reduce((sum, t) => sum + t.gas, 0n);
      const l1 = own.reduce((sum, t) => sum + t.l1, 0n);
      return {
        inputTokenIndex: index,
        chainId: work.chainId,
        nativeSymbol,
        status: 'estimated',
        reason: null,
        transactions: own.map(({ kind, to, gasUnits: units, gasMethod, l1DataFeeWei }) => ({
          kind,
          to,
          gasUnits: units,
          gasMethod,
          l1DataFeeWei,
        })),
        gasUnits,
        baseFeePerGas: fee.baseFeePerGas,
        priorityFeePerGas: fee.priorityFeePerGas,
        l1DataFee: l1,
        costNative: gasUnits * (fee.baseFeePerGas + fee.priorityFeePerGas) + l1,
      };
    });
  }
}

/** allowance(owner, spender)'s selector (0xdd62ed3e) and arguments, encoded without hashing the signature. */
function allowanceCall(owner: Address, spender: Address): Hex {
  const args = encodeAbiParameters([{ type: 'address' }, { type: 'address' }], [owner, spender]);
  return `0xdd62ed3e${args.slice(2)}`;
}

/** What a wallet like viem's offers: 1.2 × base fee + tip as its cap (only the transaction's bytes depend on it). */
function maxFees(fee: ChainFeeData): { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } {
  return {
    maxFeePerGas: (fee.baseFeePerGas * 12n) / 10n + fee.priorityFeePerGas,
    maxPriorityFeePerGas: fee.priorityFeePerGas,
  };
}

/** Each planned call with its source, its kind and its per-call estimate (the fallback, and its L1 bytes' gas). */
function flatten(planned: PlannedChainCalls): {
  sourceIndex: number;
  kind: SourceGasTransactionKind;
  guess: bigint;
  call: DraftCall;
}[] {
  return planned.quotes.flatMap((quote) =>
    quote.calls.map((call) => {
      const kind = transactionKind(call, quote.provider);
      return {
        sourceIndex: quote.sourceIndex,
        kind,
        guess: perCallGas(kind, quote.provider, call.data),
        call,
      };
    }),
  );
}
