import { type PartnerAuthConfig } from '@svc/auth';

/**
 * The fixed inputs every vector file is built from: no clock, no randomness, so regeneration is byte-identical.
 * The partners are the development ones of config/partners.dev.json (public, throw-away secrets), plus a partner in
 * the middle of a secret rotation.
 */
export const NOW_MS = 1_767_225_600_000;

export const PARTNERS = [
  { partnerId: 'demo-partner', secret: 'dev-only-secret-do-not-use-in-production', authVersion: 2 },
  { partnerId: 'legacy-partner', secret: 'dev-only-legacy-secret-do-not-use', authVersion: 1 },
  {
    partnerId: 'rotating-partner',
    secret: 'new-secret-of-the-rotating-partner',
    previousSecret: 'old-secret-of-the-rotating-partner',
    authVersion: 2,
  },
] as const satisfies readonly PartnerAuthConfig[];

export const [V2_PARTNER, V1_PARTNER, ROTATING_PARTNER] = PARTNERS;

/** The quote of docs/partners/signing.md's worked example: compact JSON, as most clients send it. */
export const QUOTE_BODY =
  '{"walletAddress":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","sources":[{"chainId":1,"address":"0x700b6A60ce7EaaEA56F065753d8dcB9653dbAD35","amount":"250000000","decimals":6}],"target":{"chainId":8453,"address":"0x700b6A60ce7EaaEA56F065753d8dcB9653dbAD35"}}';

/**
 * A body whose bytes a client must send exactly as signed: indentation, a tab, CRLF line ends, a trailing newline,
 * non-ASCII text (é, €, a non-BMP emoji) and a JSON escape that re-serialization would turn into another spelling.
 */
export const UNUSUAL_BODY =
  '{\r\n  "walletContext": {\r\n\t"connector": "Caf\u00e9 \u20ac \u{1F680}",\r\n    "walletCapabilities": {"note": "\\u00e9 stays escaped"}\r\n  }\r\n}\n';

export const ATTEMPT_ID = 'at_3e9d2c1b0a4f4e8d9c7b6a5f4e3d2c1b';
export const INTENT_SESSION_ID = 'is_8c1f0e2a4b6d4f7e9a0b1c2d3e4f5a6b';

/** Nonces: 16 to 128 of A-Za-z0-9._~- (checkAuthHeaders), one per signed request. */
export const nonce = (n: number): string => `vector-nonce-${String(n).padStart(4, '0')}`;

/** Bytes as every language can read them back: base64 always, the UTF-8 text too when it is valid UTF-8. */
export function bytesField(bytes: Buffer): { base64: string; utf8?: string } {
  let text: string | undefined;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = undefined;
  }
  return { base64: bytes.toString('base64'), ...(text === undefined ? {} : { utf8: text }) };
}

/** The inverse of bytesField, as an SDK test does it: base64 is the truth. */
export function bytesOf(field: { base64: string }): Buffer {
  return Buffer.from(field.base64, 'base64');
}
