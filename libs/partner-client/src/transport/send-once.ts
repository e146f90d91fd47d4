import { type PartnerResponse } from '../partner-response';

/**
 * One HTTP exchange; throws when no complete response arrived (connection refused or dropped, time-out,
 * body cut off). Redirects are returned, not followed: a signed request goes only where it was signed for.
 */
export async function sendOnce(
  fetchFn: typeof fetch,
  url: string,
  init: { method: string; headers: Record<string, string>; body: Buffer | null },
  timeoutMs: number,
): Promise<PartnerResponse> {
  const response = await fetchFn(url, {
    method: init.method,
    headers: init.headers,
    body: init.body ?? undefined,
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  return { status: response.status, headers: Object.fromEntries(response.headers), body: parseBody(text) };
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
