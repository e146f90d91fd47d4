const ATOMIC_STATUSES: readonly unknown[] = ['supported', 'ready'];
const HEX_CHAIN_KEY = /^0x[0-9a-f]+$/i;

/**
 * Whether the wallet reported atomic batch support (EIP-5792 `wallet_getCapabilities`) for the chain: an entry
 * keyed by the chain's hex id, or by `0x0` (every chain), with `atomic.status` `supported` or `ready`, or the
 * older `atomicBatch.supported: true`. Anything else, malformed included, is no support.
 *
 * Never claims support the wallet did not report: an entry for the chain itself decides over `0x0`, `atomic`
 * decides over `atomicBatch`, and one entry saying no (or unreadable) outweighs another saying yes.
 */
export function atomicSupported(capabilities: unknown, chainId: number): boolean {
  if (!isRecord(capabilities)) return false;
  const wanted = BigInt(chainId);
  const forChain: boolean[] = [];
  const forEveryChain: boolean[] = [];
  for (const [key, entry] of Object.entries(capabilities)) {
    if (!HEX_CHAIN_KEY.test(key)) continue;
    const keyChain = BigInt(`0x${key.slice(2)}`);
    if (keyChain !== wanted && keyChain !== 0n) continue;
    const verdict = atomicVerdict(entry);
    if (verdict === undefined) continue;
    (keyChain === wanted ? forChain : forEveryChain).push(verdict);
  }
  const decisive = forChain.length > 0 ? forChain : forEveryChain;
  return decisive.length > 0 && decisive.every(Boolean);
}

/** undefined: the entry says nothing about atomicity (e.g. only a paymaster capability). */
function atomicVerdict(entry: unknown): boolean | undefined {
  if (!isRecord(entry)) return false;
  if (Object.hasOwn(entry, 'atomic')) {
    return isRecord(entry.atomic) && ATOMIC_STATUSES.includes(entry.atomic.status);
  }
  if (Object.hasOwn(entry, 'atomicBatch')) {
    return isRecord(entry.atomicBatch) && entry.atomicBatch.supported === true;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
