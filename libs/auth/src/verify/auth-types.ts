import { type ErrorCode } from '@svc/contract';

/** What auth needs to know about a partner; the rest of its configuration belongs to the gateway. */
export interface PartnerAuthConfig {
  partnerId: string;
  secret: string;
  /**
   * During a secret rotation, the secret being retired: requests signed with it still verify (never used to sign
   * anything). Absent outside a rotation.
   */
  previousSecret?: string;
  /** Chosen server-side; the request header can only confirm it (spec: no negotiation, no downgrade). */
  authVersion: 1 | 2;
}

/** Synchronous on purpose: the verifier stays pure, the caller loads partner configuration beforehand. */
export type LookupPartner = (partnerId: string) => PartnerAuthConfig | undefined;

export interface AuthRequest {
  method: string;
  /** The raw request target, Node's `req.url`. */
  rawUrl: string;
  /** Node's `req.rawHeaders`: name, value, name, value... (`req.headers` joins duplicates, which hides them). */
  rawHeaders: readonly string[];
  /** The exact raw request bytes, read before any parsing. */
  body: Buffer;
}

export type AuthResult = AuthSuccess | AuthFailure;

export interface AuthSuccess {
  ok: true;
  partnerId: string;
  authVersion: 1 | 2;
  /** The canonical path that was signed (and that the gateway routes). */
  path: string;
  /**
   * What the gateway binds, so the same credential cannot authorize another request: the v2 nonce, or for v1 the
   * signature with the method, path and Idempotency-Key it came with (`v1.<sha256>`, M4 and N-L1). Null only when
   * nothing is bound.
   */
  nonce: string | null;
  /** SHA-256 hex of the request tuple that a reused nonce (or v1 signature) must match exactly. */
  requestTupleHash: string | null;
  /** Which of the partner's secrets verified it: `previous` only during a rotation (the operator's signal to retire). */
  secret: 'current' | 'previous';
}

export interface AuthFailure {
  ok: false;
  code: ErrorCode;
  message: string;
}
