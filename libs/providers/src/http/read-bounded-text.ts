/** Provider answers are a few kilobytes; anything past this is not an answer we can use. */
export const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/** The body as text, or null when it exceeds `maxBytes` (the rest is not downloaded). */
export async function readBoundedText(response: Response, maxBytes: number): Promise<string | null> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    return null;
  }
  if (response.body === null) return '';
  // Node's typings leave the chunk type open; fetch bodies are byte streams.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
