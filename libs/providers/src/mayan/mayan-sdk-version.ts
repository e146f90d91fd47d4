import { MalformedResponseError } from '../response/malformed-response.error';

export type SdkVersion = readonly [number, number, number];

/**
 * The swap SDK release whose requests and calldata this adapter reproduces: mayan-finance/swap-sdk v15.2.0
 * (cd5a34ca, src/utils.ts `const sdkVersion = [15, 2, 0]`). Raise it only after re-reading that release's
 * src/api.ts, src/utils.ts and src/evm/evmSwift.ts against this folder.
 */
export const MAYAN_SDK_VERSION: SdkVersion = [15, 2, 0];

/** As the SDK sends it on every price-API call (src/utils.ts `getSdkVersion`: `sdkVersion.join('_')`). */
export const MAYAN_SDK_VERSION_PARAM = MAYAN_SDK_VERSION.join('_');

/**
 * A quote answer's `minimumSdkVersion` ([major, minor, patch]). The SDK reads it on every answer
 * (src/api.ts `fetchQuote`) and fails without it, so a missing or malformed one is the provider's fault here too.
 */
export function readMinimumSdkVersion(value: unknown): SdkVersion {
  if (
    !Array.isArray(value) ||
    value.length !== 3 ||
    !value.every((part) => typeof part === 'number' && Number.isSafeInteger(part) && part >= 0)
  )
    throw new MalformedResponseError('minimumSdkVersion is not [major, minor, patch]');
  return [value[0] as number, value[1] as number, value[2] as number];
}

/** swap-sdk src/utils.ts `checkSdkVersionSupport`: major, then minor, then patch; equal is supported. */
export function supportsSdkVersion(minimum: SdkVersion, ours: SdkVersion = MAYAN_SDK_VERSION): boolean {
  for (let i = 0; i < 3; i++) {
    if (ours[i] !== minimum[i]) return ours[i] > minimum[i];
  }
  return true;
}
