/** The one read this needs (the event store port's `readStream`, typed here so testing does not import event-store). */
interface StreamReader {
  readStream(streamId: string): Promise<{ type: string; data: Record<string, unknown> }[]>;
}

/**
 * Facts recorded more than once on an attempt's stream: the same event type for the same subject (a source
 * transaction, a leg, or the attempt itself for its lifecycle events; a leg's pending status with the provider's word,
 * since a provider moving from one status to the next is a new fact). Two trackers working one attempt at once, or a
 * replay without deterministic ids, would show here. EvidenceReported is left out: one per partner report.
 */
export async function duplicatedAttemptFacts(
  store: StreamReader,
  attemptId: string,
): Promise<[string, number][]> {
  const seen = new Map<string, number>();
  for (const e of await store.readStream(`attempt-${attemptId}`)) {
    if (e.type === 'EvidenceReported') continue;
    const subject = e.data['txHash'] ?? e.data['sliceId'] ?? '';
    const status = e.type === 'LegPending' ? ` ${String(e.data['providerStatus'])}` : '';
    const key = `${e.type} ${typeof subject === 'string' ? subject : JSON.stringify(subject)}${status}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1);
}
