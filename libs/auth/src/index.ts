export { sha256Hex, EMPTY_BODY_SHA256 } from './hash/sha256-hex';
export { hmacSha256Hex } from './hash/hmac-sha256-hex';
export { timingSafeEqualHex } from './hash/timing-safe-equal-hex';
export { buildSigningStringV2, type SigningPartsV2 } from './signing/signing-string-v2';
export { signRequestV2 } from './signing/sign-request-v2';
export { signRequestV1 } from './signing/sign-request-v1';
export { signWebhook } from './signing/sign-webhook';
export {
  canonicalizeRequestPath,
  type CanonicalPathResult,
  type PathRejection,
} from './path/canonicalize-request-path';
export { authenticateRequest } from './verify/authenticate-request';
export { checkAuthHeaders, type AuthHeaders } from './verify/check-auth-headers';
export { MAX_CLOCK_SKEW_MS } from './verify/check-timestamp';
export type {
  AuthFailure,
  AuthRequest,
  AuthResult,
  AuthSuccess,
  LookupPartner,
  PartnerAuthConfig,
} from './verify/auth-types';
