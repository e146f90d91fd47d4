import { type ChainRegistry } from '@svc/chains';
import { type SourceGasTransaction, type SourceGasTransactionKind } from '@svc/contract';
import {
  type SourceGasEstimator,
  type SourceGasFigures,
  type SourceGasInput,
  type SourceGasSession,
  SourceGasTimeoutError,
  unavailableSourceGas,
  withBudget,
} from '@svc/domain';
import { registeredMetric } from '@svc/platform';
import { Counter } from 'prom-client';
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
import { type SimulatedChain, simulateChainCalls } from './simulate-chain-calls';
import { transactionKind } from './transaction-kind';

/**
 * A chain's first round trip in a quote's estimate: `speculated` (started for a provisional plan while providers were
 * still answering), `reused` (a final estimate served by a speculated one with the same calls), `fresh` (a final
 * estimate that read the chain itself). Speculated minus reused is what was read for nothing.
 */
const chainReads = registeredMetric(
  'intent_source_gas_chain_reads_total',
  () =>
    new Counter({
      name: 'intent_source_gas_chain_reads_total',
      help: "Source gas: a chain's first round trip of a quote's estimate, by kind (speculated, reused, fresh)",
      labelNames: ['kind'] as const,
    }),
);

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

  estimate(input: SourceGasInput): Promise<SourceGasFigures[]> {
    return this.estimateWith(input, (plan) => this.fresh(plan));
  }

  private fresh(plan: ChainPlan): Promise<FirstRun> {
    chainReads.inc({ kind: 'fresh' });
    return this.firstRun(plan);
  }

  /**
   * One quote's estimates: a chain's first round trip (allowances, simulation from zero allowances, fee data) started
   * by `speculate` for a provisional plan serves the final estimate when that chain's planned calls and reads are
   * exactly the same (the key below); anything else is read afresh. At most MAX_SPECULATIONS_PER_CHAIN a quote.
   */
  session(): SourceGasSession {
    const runs = new Map<string, Promise<FirstRun>>();
    const perChain = new Map<number, number>();
    return {
      speculate: (input) => {
        try {
          for (const work of this.chainWork(input)) {
            if (!this.chains.has(work.chainId)) continue;
            const started = perChain.get(work.chainId) ?? 0;
            if (started >= MAX_SPECULATIONS_PER_CHAIN) continue;
            const plan = this.planChain(work, input.request.walletAddress as Address);
            if (runs.has(plan.key)) continue;
            perChain.set(work.chainId, started + 1);
            chainReads.inc({ kind: 'speculated' });
            const run = this.firstRun(plan);
            run.catch(() => undefined); // only not reused; the final estimate reads afresh
            runs.set(plan.key, run);
          }
        } catch {
          // A provisional plan that cannot be planned is not speculated on.
        }
      },
      estimate: (input) =>
        this.estimateWith(input, (plan) => {
          const early = runs.get(plan.key);
          if (!early) return this.fresh(plan);
          return early.then(
            (run) => {
              chainReads.inc({ kind: 'reused' });
              return run;
            },
            () => this.fresh(plan),
          );
        }),
    };
  }

  private chainWork(input: SourceGasInput): ChainWork[] {
    const { request } = input;
    return collectChainWork({
      wallet: request.walletAddress as Address,
      recipient: request.recipient as Address,
      legs: input.legs,
      targets: legTargets(request, input.legs),
      sources: request.sources,
      chainName: (chainId) => `chain ${chainId}`,
      walletCapabilities: undefined,
    });
  }

  private async estimateWith(
    input: SourceGasInput,
    first: (plan: ChainPlan) => Promise<FirstRun>,
  ): Promise<SourceGasFigures[]> {
    const wallet = input.request.walletAddress as Address;
    const perChain = await Promise.all(
      this.chainWork(input).map((w) => this.estimateChain(w, wallet, first)),
    );
    return perChain.flat().sort((a, b) => a.inputTokenIndex - b.inputTokenIndex);
  }

  private async estimateChain(
    work: ChainWork,
    wallet: Address,
    first: (plan: ChainPlan) => Promise<FirstRun>,
  ): Promise<SourceGasFigures[]> {
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
      return await withBudget(
        this.readChain(this.planChain(work, wallet), sourceIndexes, nativeSymbol, first),
        this.chainBudgetMs,
      );
    } catch (error) {
      const reason =
        error instanceof SourceGasTimeoutError
          ? `chain ${work.chainId} did not answer within ${this.chainBudgetMs} ms`
          : `chain ${work.chainId} could not be read: ${(error as Error).name}`;
      return sourceIndexes.map((i) => unavailableSourceGas(i, work.chainId, nativeSymbol, reason));
    }
  }

  /**
   * The usual case needs one round trip (a wallet with no allowance yet for any pair): the calls planned as from zero
   * allowances, simulated right after a block that reads those allowances, beside the fee data (one JSON-RPC batch).
   * The key names exactly what that round trip asks: chain, wallet, the calls in order, the reads.
   */
  private planChain(work: ChainWork, wallet: Address): ChainPlan {
    const needs = approvalNeeds(work.slices.map((slice) => ({ calls: slice.stored, amount: slice.amount })));
    const fromZero = flatten(chainCallsWith(work, approvalsFromZero(needs, work.slices.length)));
    const reads = needs.map((need) => ({ to: need.token, data: allowanceCall(wallet, need.spender) }));
    const key = [
      work.chainId,
      wallet,
      ...fromZero.map((c) => `${c.sourceIndex}:${c.kind}:${c.call.to}:${c.call.value}:${c.call.data}`),
      ...reads.map((r) => `${r.to}:${r.data}`),
    ].join('|');
    return { work, wallet, fromZero, reads, key };
  }

  /** The allowances read and the calls from zero simulated, beside the chain's fee data. */
  private async firstRun(plan: ChainPlan): Promise<FirstRun> {
    const client = this.chains.client(plan.work.chainId);
    const feeRead = this.fees.read(plan.work.chainId, client);
    // The transactions' bytes (for the L1 data fee) need fee fields: the last ones read serve, a byte at most off.
    const sizing = this.fees.peek(plan.work.chainId) ?? (await feeRead);
    const [simulated] = await Promise.all([this.simulate(plan, plan.fromZero, sizing, plan.reads), feeRead]);
    return { simulated, sizing };
  }

  private simulate(
    plan: ChainPlan,
    calls: PlannedCall[],
    sizing: ChainFeeData,
    reads?: { to: string; data: Hex }[],
  ) {
    return simulateChainCalls(this.chains.client(plan.work.chainId), {
      chainId: plan.work.chainId,
      wallet: plan.wallet,
      calls: calls.map((c) => c.call),
      gasGuess: (i) => calls[i].guess,
      l1DataFee: this.l1Chains.has(plan.work.chainId),
      ...maxFees(sizing),
      reads,
    });
  }

  private async readChain(
    plan: ChainPlan,
    sourceIndexes: readonly number[],
    nativeSymbol: string,
    first: (plan: ChainPlan) => Promise<FirstRun>,
  ): Promise<SourceGasFigures[]> {
    const { work, wallet } = plan;
    const { simulated: firstRun, sizing } = await first(plan);
    // The fee per gas as of now, at most QUOTE_FEE_DATA_MAX_AGE_MS old (the cache's): a round trip started early, while
    // a slow provider was awaited, may have read it seconds before. For a round trip just made, the same read.
    const fee = await this.fees.read(work.chainId, this.chains.client(work.chainId));
    // Only when an allowance turns out non-zero are the calls planned as prepare would (planApprovals reads them,
    // and may need a reset) and simulated again.
    const zero = firstRun.reads.every((read) => read !== null && BigInt(read) === 0n);
    const calls = zero ? plan.fromZero : flatten(await planChainCalls(work, wallet, this.chains));
    const simulated = zero ? firstRun.calls : (await this.simulate(plan, calls, sizing)).calls;
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

/** Provisional plans a quote may start reading per chain before its providers have all answered. */
export const MAX_SPECULATIONS_PER_CHAIN = 2;

interface PlannedCall {
  sourceIndex: number;
  kind: SourceGasTransactionKind;
  guess: bigint;
  call: DraftCall;
}

interface ChainPlan {
  work: ChainWork;
  wallet: Address;
  fromZero: PlannedCall[];
  reads: { to: string; data: Hex }[];
  key: string;
}

interface FirstRun {
  simulated: SimulatedChain;
  /** The fee fields the transactions were sized with (for their L1 data fee). */
  sizing: ChainFeeData;
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
function flatten(planned: PlannedChainCalls): PlannedCall[] {
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
