import { type ChainRegistry } from '@svc/chains';
import { type Address, erc20Abi } from 'viem';
import { getBlockNumber, getLogs } from 'viem/actions';

/** A delivery worth watching for: the target token reaching a leg's recipient on the destination chain. */
export interface WatchedDelivery {
  chainId: number;
  token: string;
  recipient: string;
}

const TRANSFER = erc20Abi.find((e) => e.type === 'event' && e.name === 'Transfer')!;
/** Recipients per eth_getLogs request. */
const CHUNK = 100;
/**
 * The widest block range one scan asks for (eth_getLogs from..to, both included). Hosted nodes refuse wide ranges
 * (2 000, 1 000, 100 blocks...): after an outage or an idle spell the scan covers the latest blocks only, and what is
 * older is skipped, not asked for (security review N-L6). A scan normally covers a block or two.
 */
export const MAX_SCAN_BLOCKS = 100n;

export const deliveryKey = (d: WatchedDelivery) =>
  `${d.chainId}:${d.token.toLowerCase()}:${d.recipient.toLowerCase()}`;

/**
 * Watches the destination chains for the target tokens arriving at the recipients of open legs: one block-number read
 * and one log query per chain and tick, whatever the number of attempts. A delivery seen is only a hint that the
 * leg's provider is worth asking now: what settles a leg is still the provider's fill, read from the chain.
 */
export class FillWatcher {
  private readonly lastBlock = new Map<number, bigint>();

  constructor(
    private readonly chains: ChainRegistry,
    private readonly maxBlocks: bigint = MAX_SCAN_BLOCKS,
  ) {}

  /**
   * The watched deliveries seen since the last scan, as deliveryKey()s, within the chain's latest `maxBlocks` blocks.
   * Node failures, and deliveries older than that, lose hints, nothing else: the provider polls still settle the legs.
   */
  async scan(watched: WatchedDelivery[]): Promise<Set<string>> {
    const seen = new Set<string>();
    const byChain = new Map<number, WatchedDelivery[]>();
    for (const w of watched)
      if (this.chains.has(w.chainId)) byChain.set(w.chainId, [...(byChain.get(w.chainId) ?? []), w]);
    await Promise.all(
      [...byChain].map(async ([chainId, list]) => {
        try {
          const client = this.chains.client(chainId);
          const latest = await getBlockNumber(client, { cacheTime: 0 });
          const oldest = latest >= this.maxBlocks ? latest - this.maxBlocks + 1n : 0n;
          const next = this.lastBlock.get(chainId) ?? (latest > 2n ? latest - 2n : 0n);
          if (next > latest) return;
          // After a failed scan (or none for a while), only the latest blocks: a range the node refuses would fail
          // every scan from then on.
          const from = next > oldest ? next : oldest;
          const tokens = [...new Set(list.map((w) => w.token.toLowerCase() as Address))];
          const recipients = [...new Set(list.map((w) => w.recipient.toLowerCase() as Address))];
          for (let i = 0; i < recipients.length; i += CHUNK) {
            const logs = await getLogs(client, {
              address: tokens,
              event: TRANSFER,
              args: { to: recipients.slice(i, i + CHUNK) },
              fromBlock: from,
              toBlock: latest,
            });
            for (const log of logs)
              seen.add(deliveryKey({ chainId, token: log.address, recipient: log.args.to ?? '' }));
          }
          this.lastBlock.set(chainId, latest + 1n);
        } catch {
          // The next scan starts where this one did, or at its latest `maxBlocks` blocks if the chain moved on more.
        }
      }),
    );
    return seen;
  }
}
