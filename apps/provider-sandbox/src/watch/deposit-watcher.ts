import { type Address, type GetLogsReturnType } from 'viem';
import { type SandboxPublicClient } from '../rpc/chain-clients';
import { DEPOSIT_EVENTS } from './deposit-events';

export type DepositLog = GetLogsReturnType<undefined, typeof DEPOSIT_EVENTS, true>[number];

/**
 * Polls one chain for deposit events from the block after the one current at start, so deposits made
 * before the sandbox started are never filled. One poll at a time: a slow RPC delays, never overlaps.
 */
export class DepositWatcher {
  private cursor = 0n;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly options: {
      client: SandboxPublicClient;
      addresses: Address[];
      pollIntervalMs: number;
      onLogs(logs: DepositLog[]): Promise<void>;
      onError(error: unknown): void;
    },
  ) {}

  async start(): Promise<void> {
    this.cursor = (await this.options.client.getBlockNumber()) + 1n;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.poll().finally(() => this.schedule());
    }, this.options.pollIntervalMs);
  }

  private async poll(): Promise<void> {
    try {
      const { client, addresses } = this.options;
      const latest = await client.getBlockNumber();
      if (latest < this.cursor) return;
      const logs = await client.getLogs({
        address: addresses,
        events: DEPOSIT_EVENTS,
        fromBlock: this.cursor,
        toBlock: latest,
        strict: true,
      });
      this.cursor = latest + 1n;
      await this.options.onLogs(logs);
    } catch (error) {
      this.options.onError(error);
    }
  }
}
