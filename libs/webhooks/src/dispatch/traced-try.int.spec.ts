import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { ChainRegistry } from '@svc/chains';
import { attemptStreamId, type DueWebhook } from '@svc/domain';
import { submittedWithSignature, T0 } from '@svc/domain/attempt-fixture';
import { type EventStore, MemoryEventStore, traceAppends } from '@svc/event-store';
import { inSpan, type PartnerConfig, SpanKind, startTracing, systemClock, type Tracing } from '@svc/platform';
import { type CountingWebhookReceiver, startCountingWebhookReceiver } from '@svc/testing';
import { tryWebhookTraced } from './traced-try';
import { commandWebhooks } from './webhook-stream';

const partner = {
  partnerId: 'trace-partner',
  secret: 'trace-partner-secret-0123456789',
  authVersion: 2 as const,
};

/**
 * An attempt submitted (the domain fixture) on `attempt-<id>`, its wallet_submitted webhook queued: the lifecycle
 * event is appended inside `record`, as a partner request's handler appends it.
 */
async function submittedAttempt(
  store: EventStore,
  attemptId: string,
  record: (append: () => Promise<unknown>) => Promise<unknown>,
): Promise<DueWebhook> {
  const events = submittedWithSignature.map((e) => ({
    id: crypto.randomUUID(),
    type: e.type,
    data: { ...e.data },
  }));
  await record(() => store.append(attemptStreamId(attemptId), events, { expectedRevision: 'no_stream' }));
  const lifecycleRevision = events.findIndex((e) => e.type === 'AttemptWalletSubmitted');
  const due = {
    eventId: events[lifecycleRevision].id,
    event: 'wallet_submitted' as const,
    lifecycleRevision,
    occurredAt: T0,
  };
  await commandWebhooks(store, attemptId, `queue:${due.eventId}`, {
    type: 'QueueWebhook',
    data: { ...due, attemptId, partnerId: partner.partnerId, now: Date.now() },
  });
  return { ...due, attempt: 1 };
}

describe('a webhook delivery belongs to the trace of its lifecycle event', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let receiver: CountingWebhookReceiver;
  let config: PartnerConfig;
  const deps = () => ({
    store: traceAppends(new MemoryEventStore()),
    chains: new ChainRegistry([]),
    clock: systemClock,
    timeoutMs: 5000,
  });

  beforeAll(async () => {
    tracing = startTracing(
      { serviceName: 'webhooks-test', sampler: 'always_on', ratio: 1, tracesUrl: null, headers: {} },
      exporter,
    );
    receiver = await startCountingWebhookReceiver(partner);
    config = {
      ...partner,
      callbackUrl: `${receiver.url}?token=do-not-trace-me`,
      maxFeeBps: 0,
      allowedProviders: ['relay'],
      rateLimitPerMinute: 1000,
      enabled: true,
    };
  });
  afterAll(async () => {
    await receiver.close();
    await tracing.shutdown();
  });
  beforeEach(() => exporter.reset());

  const named = (name: string): ReadableSpan[] => exporter.getFinishedSpans().filter((s) => s.name === name);

  it('is a child of the append that recorded the event, in the request trace; its own recording joins it', async () => {
    const d = deps();
    const due = await submittedAttempt(d.store, 'at_traced', (append) =>
      inSpan('POST /api/external/attempts/:attemptId/submitted', { kind: SpanKind.SERVER }, append),
    );
    const [request] = named('POST /api/external/attempts/:attemptId/submitted');
    const [lifecycleAppend] = named('event-store append').filter(
      (s) => s.attributes['svc.stream.prefix'] === 'attempt',
    );
    expect(lifecycleAppend?.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    const [stored] = await d.store.readStream(attemptStreamId('at_traced'), {
      fromRevision: due.lifecycleRevision,
      maxCount: 1,
    });
    expect(stored?.metadata['traceparent']).toBe(
      `00-${request.spanContext().traceId}-${lifecycleAppend.spanContext().spanId}-01`,
    );
    exporter.reset();

    await expect(tryWebhookTraced(d, 'at_traced', due, config)).resolves.toEqual(
      expect.objectContaining({ recorded: 'delivered' }),
    );
    expect(receiver.received.map((e) => e.eventId)).toContain(due.eventId);
    const [delivery] = named('webhook wallet_submitted');
    expect(delivery?.kind).toBe(SpanKind.CLIENT);
    expect(delivery?.spanContext().traceId).toBe(request.spanContext().traceId);
    expect(delivery?.parentSpanContext?.spanId).toBe(lifecycleAppend.spanContext().spanId);
    expect(delivery?.attributes).toEqual({
      'svc.webhook.event': 'wallet_submitted',
      'svc.webhook.try': 1,
      'svc.partner_id': partner.partnerId,
      'server.address': '127.0.0.1',
      'svc.webhook.outcome': 'delivered',
    });
    const [recorded] = named('event-store append');
    expect(recorded?.attributes['svc.stream.prefix']).toBe('webhook');
    expect(recorded?.parentSpanContext?.spanId).toBe(delivery.spanContext().spanId);
    const everything = JSON.stringify(exporter.getFinishedSpans().map((s) => s.attributes));
    expect(everything).not.toContain('do-not-trace-me');
    expect(everything).not.toContain(partner.secret);
  });

  it('starts a trace of its own for an event recorded outside any trace (before tracing, or a background pass)', async () => {
    const d = deps();
    const due = await submittedAttempt(d.store, 'at_untraced', (append) => append());
    const [stored] = await d.store.readStream(attemptStreamId('at_untraced'), {
      fromRevision: due.lifecycleRevision,
      maxCount: 1,
    });
    expect(stored?.metadata).toEqual({});
    expect(named('event-store append')).toEqual([]);

    await expect(tryWebhookTraced(d, 'at_untraced', due, config)).resolves.toEqual(
      expect.objectContaining({ recorded: 'delivered' }),
    );
    const [delivery] = named('webhook wallet_submitted');
    expect(delivery?.parentSpanContext).toBeUndefined();
  });
});
