import { type Address } from 'viem';
import { type QuoteSlice } from '../provider-adapter.port';
import { type MayanChain } from './mayan-chains';
import { MAYAN_SDK_VERSION_PARAM } from './mayan-sdk-version';
import { cappedReferrerBps } from './swift-referrer-bps';

/** swap-sdk src/addresses.ts `MAYAN_PROGRAM_ID`, which the SDK sends as `solanaProgram` on every quote. */
export const MAYAN_SOLANA_PROGRAM = 'FC4eXxkyrMPTjiYUpp4EAnkmwMbQyZ6NDCh1kfLn6vsf';

/**
 * Body of `POST /quote`, field for field what swap-sdk v15.2.0 `generateFetchQuoteUrlAndBody` (src/api.ts) sends,
 * with its options set to Swift only: Swift is the route whose transaction this adapter builds. Fields the SDK
 * leaves undefined (and JSON.stringify drops) are left out. `guaranteedOutput` defaults to true since v15.1.0.
 * `forwarderAddress` is the forwarder the calls go to (the SDK's `MAYAN_FORWARDER_CONTRACT`; the sandbox's own).
 * The referrer fee is Mayan's name for our app fee, capped at what any Swift version accepts
 * (swift-referrer-bps.ts): the version is only known from the answer, where the order applies its own cap.
 */
export function mayanQuoteRequest(
  slice: QuoteSlice,
  chains: { from: MayanChain; to: MayanChain },
  referrer: Address | null,
  forwarderAddress: Address,
): Record<string, unknown> {
  return {
    wormhole: false,
    swift: true,
    mctp: false,
    shuttle: false,
    fastMctp: false,
    gasless: false,
    onlyDirect: false,
    fullList: false,
    guaranteedOutput: true,
    monoChain: false,
    mpsDeposit: false,
    solanaProgram: MAYAN_SOLANA_PROGRAM,
    forwarderAddress,
    amountIn64: slice.source.amount.toString(),
    fromToken: slice.source.token,
    fromChain: chains.from.name,
    toToken: slice.target.token,
    toChain: chains.to.name,
    slippageBps: slice.slippageBps,
    ...(referrer !== null && slice.appFeeBps > 0
      ? { referrer, referrerBps: cappedReferrerBps(slice.appFeeBps, null) }
      : {}),
    destinationAddress: slice.recipient,
    sdkVersion: MAYAN_SDK_VERSION_PARAM,
  };
}
