import { inSpan, inTrace, traceCarrier } from '@svc/platform';
import { withAppend } from './with-append';
import { type EventStore, type NewEvent } from './event-store.port';

/**
 * The store with its appends traced: an append made inside a trace (a partner request's handler, a webhook
 * delivery) gets an INTERNAL span with the stream's prefix (`attempt`, never its id), the number of events and their
 * types (never their data), and each event's metadata gets the trace context (`traceparent`, `tracestate`), so work
 * that starts from the event later (its webhook deliveries) joins the trace. Metadata is additive: events without
 * it, older ones included, read and replay as before. Appends outside any trace (lease renewals, checkpoints) are
 * left alone, as is every other method.
 */
export function traceAppends(store: EventStore): EventStore {
  const append: EventStore['append'] = (streamId, events, options) => {
    if (!inTrace()) return store.append(streamId, events, options);
    return inSpan(
      'event-store append',
      {
        attributes: {
          'svc.stream.prefix': streamId.split('-')[0] ?? '',
          'svc.events.count': events.length,
          'svc.events.types': [...new Set(events.map((e) => e.type))],
        },
      },
      () => store.append(streamId, withTraceContext(events), options),
    );
  };
  return withAppend(store, append);
}

function withTraceContext(events: NewEvent[]): NewEvent[] {
  const carrier = traceCarrier();
  if (carrier['traceparent'] === undefined) return events;
  return events.map((event) =>
    event.metadata?.['traceparent'] === undefined
      ? { ...event, metadata: { ...event.metadata, ...carrier } }
      : event,
  );
}
