import { ApiKeyMissingError } from '../http/api-key-missing-error';
import { type SandboxRequest } from '../http/sandbox-http';

/**
 * The one API key the sandbox's Mayan explorer knows (the manifest hands it to the service as MAYAN_API_KEY). Mayan
 * asks explorer pollers for their key: "If you are polling at scale … pass it as `apiKey`" (docs.mayan.finance
 * /build/track-transactions). The sandbox is stricter than Mayan, which rate-limits a keyless caller per IP: it
 * refuses one outright, so a client that forgets the key fails its tests (issue 24 S17, provider review N4).
 */
export const SANDBOX_MAYAN_API_KEY = 'sandbox-mayan';

/** An explorer request with a key the sandbox does not know. */
export class ApiKeyRefusedError extends Error {
  override readonly name = 'ApiKeyRefusedError';
  constructor() {
    super('unknown apiKey');
  }
}

/** Throws ApiKeyMissingError (401) without an `apiKey` query parameter, ApiKeyRefusedError (403) for another. */
export function requireExplorerKey(request: SandboxRequest): void {
  const key = request.query.get('apiKey');
  if (key === null || key.trim() === '') throw new ApiKeyMissingError('apiKey');
  if (key !== SANDBOX_MAYAN_API_KEY) throw new ApiKeyRefusedError();
}
