import { decodeEventLog, type Hex, parseAbi, toEventSelector } from 'viem';
import { type ReceiptLog } from '../provider-adapter.port';

/**
 * The Swift contracts' `OrderCreated(bytes32 key)`, key NOT indexed, so it is in the data: identical in
 * mayan-finance/swap-sdk src/evm/MayanSwiftArtifact.ts (V1) and src/evm/MayanSwiftV2Artifact.ts (V2), cd5a34ca
 * (v15.2.0). The key is the Swift order hash, the one the explorer also answers to (docs.mayan.finance
 * /build/track-transactions: a gasless swap's "order hash ... Pass that to the same endpoint").
 */
export const mayanSwiftOrderCreatedAbi = parseAbi(['event OrderCreated(bytes32 key)']);

/**
 * Our sandbox's Swift V1 and V2 emit an extended OrderCreated, with the key indexed (topics[1]) and the order's
 * fields after it, `random` last (apps/provider-sandbox/contracts/SwiftSource.sol). Its signature, hence its topic0, differs from the real one,
 * so the two cannot be confused; reading both lets the sandbox exercise the order-key path end to end. It stays here
 * (providers review N12) because the sandbox needs it: its Swift contracts emit only this event, so without it no
 * sandbox order would name its key. Removing it needs the sandbox contracts to emit the real event too (docs/providers.md
 * "Deposit events: whose they are"). Only the Swift contract's own events are read (VouchedProviderAdapter).
 */
export const sandboxSwiftOrderCreatedAbi = parseAbi([
  'event OrderCreated(bytes32 indexed key, address tokenIn, uint256 amountIn, bytes32 trader, bytes32 tokenOut, uint64 minAmountOut, bytes32 destAddr, uint16 destChainId, uint64 deadline, bytes32 random)',
]);

const REAL_TOPIC = toEventSelector(mayanSwiftOrderCreatedAbi[0]).toLowerCase();
const SANDBOX_TOPIC = toEventSelector(sandboxSwiftOrderCreatedAbi[0]).toLowerCase();

/** The Swift order key (0x-prefixed, 32 bytes) of every OrderCreated in a receipt's logs, in log order. */
export function mayanOrderRefs(logs: readonly ReceiptLog[]): string[] {
  const refs: string[] = [];
  for (const log of logs) {
    const topic0 = log.topics[0]?.toLowerCase();
    const key =
      topic0 === REAL_TOPIC
        ? readKey(mayanSwiftOrderCreatedAbi, log)
        : topic0 === SANDBOX_TOPIC
          ? readKey(sandboxSwiftOrderCreatedAbi, log)
          : null;
    if (key !== null) refs.push(key.toLowerCase());
  }
  return refs;
}

function readKey(
  abi: typeof mayanSwiftOrderCreatedAbi | typeof sandboxSwiftOrderCreatedAbi,
  log: ReceiptLog,
): Hex | null {
  try {
    const { args } = decodeEventLog({
      abi,
      topics: log.topics as [Hex, ...Hex[]],
      data: log.data,
      // The sandbox's key is a topic: its data need not decode for the key to be read.
      strict: abi !== sandboxSwiftOrderCreatedAbi,
    });
    const key = (args as { key?: Hex } | undefined)?.key;
    return typeof key === 'string' ? key : null;
  } catch {
    return null;
  }
}
