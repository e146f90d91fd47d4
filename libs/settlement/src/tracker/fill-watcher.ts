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

export const deliveryKey = (d: WatchedDelivery) =>
  `${d.chainId}:${d.token.toLowerCase()}:${d.recipient.toLowerCase()}`;

/**
 * Watches the destination chains for the target tokens arriving at the recipients of open legs: one block-number read
 * and one log query per chain and tick, whatever the number of attempts. A delivery seen is only a hint that the
 * leg's provider is worth asking now: what settles a leg is still the provider's fill, read from the chain.
 */
export class FillWatcher {
  private readonly lastBlock = new Map<number, bigint>();

  constructor(private readonly chains: ChainRegistry) {}

  /** The watched deliveries seen since the last scan, as deliveryKey()s. Node failures lose hints, nothing else. */
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
          const from = this.lastBlock.get(chainId) ?? (latest > 2n ? latest - 2n : 0n);
          if (from > latest) return;
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
          // The next scan starts where this one did.
        }
      }),
    );
    return seen;
  }
}
