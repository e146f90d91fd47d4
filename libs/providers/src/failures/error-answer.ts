import { isRecord } from '../response/json-fields';

const MAX_MESSAGE = 200;

/**
 * The code and message of a provider's error body. Relay says `errorCode`, Across and Mayan `code` (Mayan
 * sometimes `statusCode`); the message is `message`, Mayan's `msg`, or the indexer's `error`.
 */
export function readErrorAnswer(body: unknown): { code: string | null; message: string | null } {
  if (!isRecord(body)) return { code: null, message: null };
  const rawCode = body.errorCode ?? body.code ?? body.error ?? body.statusCode;
  const code = typeof rawCode === 'string' || typeof rawCode === 'number' ? String(rawCode) : null;
  const rawMessage = body.message ?? body.msg;
  const message = typeof rawMessage === 'string' ? rawMessage.slice(0, MAX_MESSAGE) : null;
  return { code, message };
}
