import { hmacSha256Hex } from '../hash/hmac-sha256-hex';
import { buildSigningStringV2, type SigningPartsV2 } from './signing-string-v2';

/** X-Signature for a v2 request: HMAC-SHA256 of the signing string keyed with the partner secret. */
export function signRequestV2(secret: string, parts: SigningPartsV2): string {
  return hmacSha256Hex(secret, buildSigningStringV2(parts));
}
