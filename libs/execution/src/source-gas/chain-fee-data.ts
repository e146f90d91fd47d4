import { type ChainClient } from '@svc/chains';

export interface ChainFeeData {
  baseFeePerGas: bigint;
  priorityFeePerGas: bigint;
}

/**
 * The fee per gas each chain asks now: the latest block's base fee and the tip its node suggests
 * (eth_maxPriorityFeePerGas; eth_gasPrice − base fee where a node has no such method). Read at most once per
 * `maxAgeMs` per chain (default 1 s: about one block on an L2, a twelfth of one on mainnet), and shared by every
 * quote asking meanwhile, so concurrent quotes cost the chain one read.
 */
export class ChainFeeDataCache {
  private readonly entries = new Map<number, { at: number; data: Promise<ChainFeeData> }>();
  private readonly last = new Map<number, ChainFeeData>();

  constructor(private readonly maxAgeMs = 1_000) {}

  /** The last fee data read for the chain, however old, or null. */
  peek(chainId: number): ChainFeeData | null {
    return this.last.get(chainId) ?? null;
  }

  read(chainId: number, client: ChainClient, now = Date.now()): Promise<ChainFeeData> {
    const cached = this.entries.get(chainId);
    if (cached && now - cached.at < this.maxAgeMs) return cached.data;
    const data = readFeeData(client);
    this.entries.set(chainId, { at: now, data });
    data.then((d) => this.last.set(chainId, d)).catch(() => undefined);
    // A failed read is not kept: the next quote asks again.
    data.catch(() => {
      if (this.entries.get(chainId)?.data === data) this.entries.delete(chainId);
    });
    return data;
  }
}

async function readFeeData(client: ChainClient): Promise<ChainFeeData> {
  const [block, tip] = await Promise.all([
    client.getBlock({ blockTag: 'latest' }),
    client
      .request({ method: 'eth_maxPriorityFeePerGas' } as never)
      .then((hex) => BigInt(hex as string))
      .catch(() => null),
  ]);
  const baseFeePerGas = block.baseFeePerGas ?? 0n;
  if (tip !== null) return { baseFeePerGas, priorityFeePerGas: tip };
  const gasPrice = await client.getGasPrice();
  return { baseFeePerGas, priorityFeePerGas: gasPrice > baseFeePerGas ? gasPrice - baseFeePerGas : 0n };
}
