import { isAddress } from 'viem';
import { type TrackingContext } from './provider-quote';

const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isChainId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/**
 * A tracking context as an attempt stored it (plain JSON, written from the quote's own `trackingContext`), checked and
 * typed; null when it is no provider's context (the leg is then not followed through a provider).
 */
export function readTrackingContext(stored: Record<string, unknown>): TrackingContext | null {
  const { provider } = stored;
  if (provider === 'relay') {
    const { requestId, originChainId, destinationChainId } = stored;
    return isString(requestId) && isChainId(originChainId) && isChainId(destinationChainId)
      ? { provider, requestId, originChainId, destinationChainId }
      : null;
  }
  if (provider === 'across') {
    const { originChainId, destinationChainId } = stored;
    return isChainId(originChainId) && isChainId(destinationChainId)
      ? { provider, originChainId, destinationChainId }
      : null;
  }
  if (provider === 'mayan') {
    const { fromChain, toChain, targetDecimals, swiftContract } = stored;
    // swiftContract: kept by newer builds (the quote's Swift contract, providers review N12); absent on older legs.
    const swift =
      typeof swiftContract === 'string' && isAddress(swiftContract, { strict: false })
        ? { swiftContract }
        : {};
    return isString(fromChain) &&
      isString(toChain) &&
      typeof targetDecimals === 'number' &&
      Number.isInteger(targetDecimals)
      ? { provider, fromChain, toChain, targetDecimals, ...swift }
      : null;
  }
  return null;
}
