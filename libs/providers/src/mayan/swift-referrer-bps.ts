/**
 * The most a Swift order may pay its referrer, in bps. docs.mayan.finance /integration/referral: Swift V1 "From
 * other chains [than Solana]: up to 50 bps", Swift V2 "Maximum referral fee for all chains: 100 bps". On chain the
 * field is a uint8 (swap-sdk src/evm/MayanSwiftArtifact.ts, MayanSwiftV2Artifact.ts), and the contracts revert
 * `InvalidBpsFee` past their own limit (mayan-finance/swap-bridge src/MayanSwift.sol `BPS_FEE_LIMIT = 50`; the V2
 * source, branch swift-v2-forge src/swift/SwiftSource.sol, `BPS_FEE_LIMIT = 200`): the documented caps are the
 * stricter ones, so they are the ones applied.
 */
export const SWIFT_REFERRER_BPS_CAP = { V1: 50, V2: 100 } as const;

/** The request is sent before the answer names a version: no Swift version takes more than this. */
export const MAX_SWIFT_REFERRER_BPS = Math.max(SWIFT_REFERRER_BPS_CAP.V1, SWIFT_REFERRER_BPS_CAP.V2);

/** `bps` cut to what `version` accepts: a fee above the cap cannot be charged, so less is, never a revert. */
export function cappedReferrerBps(bps: number, version: keyof typeof SWIFT_REFERRER_BPS_CAP | null): number {
  return Math.min(bps, version === null ? MAX_SWIFT_REFERRER_BPS : SWIFT_REFERRER_BPS_CAP[version]);
}
