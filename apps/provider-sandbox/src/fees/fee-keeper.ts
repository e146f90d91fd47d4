import { createAnvilClient, type AnvilClient } from '@svc/testing';
import { type Hex } from 'viem';
import { nextBaseFee, seededRandom } from './base-fee-walk';
import { l1DataFee } from './l1-data-fee';
import { type L1FeeBook } from './l1-fee-book';
import { type SandboxFeeModel } from './sandbox-fee-models';

/** How long a send waits for anvil to mine what it took (mixed mining mines at once; a nonce gap holds it). */
const MINED_WAIT_MS = 2_000;

/**
 * Keeps one chain's fee market realistic (docs/sandbox.md "Fees"): after every block it sets the next block's base
 * fee (anvil_setNextBlockBaseFeePerGas) one seeded random-walk step on, within the model's band, since anvil alone
 * lets it decay by 12.5% with every under-full block. On a chain with an L1 data fee, it then charges each of the
 * block's transactions that fee on its signed bytes: the sender's balance goes down by it and the L1FeeVault's up.
 * anvil has no atomic add, so a charge reads and sets the sender's balance; transactions reach anvil only through
 * `send` (the chain's fee RPC), which waits while a charge runs and holds charges off while it forwards, so no
 * transaction is mined between the read and the set.
 */
export class FeeKeeper {
  private readonly client: AnvilClient;
  private readonly random: () => number;
  private baseFee: bigint;
  private seen = -1n;
  private timer: NodeJS.Timeout | undefined;
  private waiters: { blockNumber: bigint; resolve: () => void }[] = [];
  /** A poll waiting for its turn or running: the next adds none meanwhile, so a slow node builds no backlog. */
  private polling = false;
  /** Sends and polls (pricing, charging), one at a time on this chain. */
  private gate: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly params: {
      chain: { chainId: number; rpcUrl: string };
      model: SandboxFeeModel;
      seed: number;
      l1Fees: L1FeeBook;
      pollIntervalMs?: number;
      onError: (error: unknown) => void;
    },
  ) {
    this.client = createAnvilClient(params.chain);
    this.random = seededRandom(params.seed + params.chain.chainId);
    this.baseFee = params.model.baseFee.start;
  }

  async start(): Promise<void> {
    // One block at the start fee, so that wallets pricing from the latest block (deployment left anvil's decayed fee)
    // offer enough for the next one.
    await this.client.setNextBlockBaseFeePerGas({ baseFeePerGas: this.baseFee });
    await this.client.mine({ blocks: 1 });
    this.seen = await this.client.getBlockNumber({ cacheTime: 0 });
    this.timer = setInterval(() => this.poll(), this.params.pollIntervalMs ?? 100);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.gate;
  }

  /**
   * Passes a transaction on (`forward`) once the next block's base fee is the keeper's, never while an L1 data fee
   * charge is reading and setting balances. `feeCaps` are the fee caps (maxFeePerGas, or gasPrice) of what is sent: a
   * real node holds a transaction whose cap is below the next base fee until the fee comes down, anvil refuses it at
   * once; so when the walk has gone above a cap that is still within the chain's band (a wallet priced it a few blocks
   * ago, while other transactions went first), the next block's base fee comes down to that cap, as the market would.
   *
   * `sent` names the transactions anvil took (their hashes, from `forward`'s answer). Under `--mixed-mining` anvil
   * answers before it mines them, so the keeper waits until they are mined (up to `MINED_WAIT_MS`) and only then sets
   * the following block's fee. Set earlier, it became the fee of the block holding them, above the cap they were
   * taken at, and they stayed pending for good; and the block after took anvil's own 12.5% decay, which pulled the
   * walk below its band within a few hundred transactions (the settlement soak's funding, CI of stop 34).
   */
  send<T>(
    feeCaps: readonly bigint[],
    forward: () => Promise<T>,
    sent: (result: T) => Hex[] = () => [],
  ): Promise<T> {
    return this.exclusive(async () => {
      const cap = feeCaps.reduce<bigint | null>((low, c) => (low === null || c < low ? c : low), null);
      if (cap !== null && cap < this.baseFee && cap >= this.params.model.baseFee.min) {
        this.baseFee = cap;
        await this.client.setNextBlockBaseFeePerGas({ baseFeePerGas: cap });
      }
      try {
        const result = await forward();
        await this.mined(sent(result)).catch(this.params.onError);
        return result;
      } finally {
        // anvil mined what was sent into a block at the keeper's fee: the next block's is one walk step on from it,
        // set before the next transaction (one call, where reading the block back would take two more).
        this.baseFee = nextBaseFee(this.baseFee, this.random(), this.walkBand());
        await this.client
          .setNextBlockBaseFeePerGas({ baseFeePerGas: this.baseFee })
          .catch(this.params.onError);
      }
    });
  }

  /**
   * Resolves once every one of `hashes` is in a block, or held by anvil for a missing nonce (mined only when its
   * predecessor comes, which may be waiting behind this send), or after `MINED_WAIT_MS`.
   */
  private async mined(hashes: readonly Hex[]): Promise<void> {
    const deadline = Date.now() + MINED_WAIT_MS;
    let waiting = [...hashes];
    while (waiting.length > 0 && Date.now() < deadline) {
      const pending = await Promise.all(waiting.map((hash) => this.awaitingMining(hash)));
      waiting = waiting.filter((_, i) => pending[i]);
      if (waiting.length > 0) await new Promise((r) => setTimeout(r, 5));
    }
  }

  /** Whether anvil has `hash` in its pool, ready to mine: not in a block yet, and its sender's next nonce. */
  private async awaitingMining(hash: Hex): Promise<boolean> {
    // viem throws TransactionNotFoundError for a hash anvil does not know (dropped): nothing to wait for.
    const tx = await this.client.getTransaction({ hash }).catch(() => null);
    if (!tx || tx.blockNumber !== null) return false;
    const next = await this.client.getTransactionCount({ address: tx.from, blockTag: 'latest' });
    return tx.nonce <= next;
  }

  private exclusive<T>(run: () => Promise<T>): Promise<T> {
    const next = this.gate.then(run, run);
    this.gate = next.catch(() => undefined);
    return next;
  }

  /**
   * Between sends, never during one: sets the next block's base fee if a block was mined since the keeper last looked
   * (anvil's own interval blocks, which leave the next fee to EIP-1559's decay), then charges the new blocks' L1 data
   * fees on a chain that has them.
   */
  private poll(): void {
    if (this.polling) return;
    this.polling = true;
    void this.exclusive(async () => {
      await this.price();
      if (this.params.model.l1DataFee) await this.charge();
    })
      .catch(this.params.onError)
      .finally(() => (this.polling = false));
  }

  /** Resolves once every block up to `blockNumber` has been charged its L1 data fees (at once without any). */
  charged(blockNumber: bigint): Promise<void> {
    if (!this.params.model.l1DataFee || blockNumber <= this.seen) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ blockNumber, resolve }));
  }

  /**
   * Sets the next block's fee a walk step on when a block took the keeper's (anvil's interval block): the pending
   * block's fee is then anvil's decay, not the keeper's. The step goes on from the keeper's own fee, not the latest
   * block's: when this poll came late, several interval blocks took anvil's 12.5% decay each, and walking on from
   * there kept each such dip for good (a loaded machine pulled the walk under its band that way); a dip lasts one block.
   * A send sets the next fee itself once its transaction is mined, so the pending fee is the keeper's after it.
   */
  private async price(): Promise<void> {
    const pending = await this.client.getBlock({ blockTag: 'pending' });
    if (pending.baseFeePerGas === this.baseFee) return;
    this.baseFee = nextBaseFee(this.baseFee, this.random(), this.walkBand());
    await this.client.setNextBlockBaseFeePerGas({ baseFeePerGas: this.baseFee });
  }

  private async charge(): Promise<void> {
    const latest = await this.client.getBlockNumber({ cacheTime: 0 });
    if (latest === this.seen) return;
    // After a reorg the chain is shorter: its new blocks are empty, nothing to charge.
    const from = latest < this.seen ? latest + 1n : this.seen + 1n;
    for (let n = from; n <= latest; n++) await this.chargeBlock(n);
    this.seen = latest;
    const due = this.waiters.filter((w) => w.blockNumber <= latest);
    this.waiters = this.waiters.filter((w) => w.blockNumber > latest);
    due.forEach((w) => w.resolve());
  }

  /**
   * The model's band with its floor raised by two EIP-1559 steps: anvil may mine a block or two before the next poll
   * resets the base fee (within 100 ms of an interval block), each up to 12.5% lower, and they should stay in band.
   */
  private walkBand(): { min: bigint; max: bigint } {
    const { min, max } = this.params.model.baseFee;
    const floor = (min * 64n) / 49n;
    return { min: floor < max ? floor : max, max };
  }

  private async chargeBlock(blockNumber: bigint): Promise<void> {
    const model = this.params.model.l1DataFee!;
    const block = await this.client.getBlock({ blockNumber, includeTransactions: true });
    for (const tx of block.transactions) {
      // Not in viem's test-client schema; anvil answers it as geth does.
      const raw: Hex = await this.client.request({
        method: 'eth_getRawTransactionByHash',
        params: [tx.hash],
      } as never);
      const fee = l1DataFee(raw, model);
      if (fee.l1Fee > 0n) {
        const balance = await this.client.getBalance({ address: tx.from, blockTag: 'latest' });
        const vault = await this.client.getBalance({ address: model.vault, blockTag: 'latest' });
        await this.client.setBalance({
          address: tx.from,
          value: balance > fee.l1Fee ? balance - fee.l1Fee : 0n,
        });
        await this.client.setBalance({ address: model.vault, value: vault + fee.l1Fee });
      }
      this.params.l1Fees.record({
        ...fee,
        chainId: this.params.chain.chainId,
        txHash: tx.hash,
        from: tx.from,
        blockNumber,
      });
    }
  }
}
