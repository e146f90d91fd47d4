import { type Context, inSpan, SpanKind } from '@svc/platform';

/** The span of one bus message on the sending side (`send quoting.quote`); the transport carries its context. */
export function sendSpan<T>(
  destination: string,
  kind: 'request' | 'event',
  system: string,
  fn: () => Promise<T>,
): Promise<T> {
  return inSpan(
    `send ${destination}`,
    {
      kind: kind === 'request' ? SpanKind.CLIENT : SpanKind.PRODUCER,
      attributes: attributes(destination, system, 'send'),
    },
    fn,
  );
}

/** The span of one bus message on the handling side, a child of the sender's (`process quoting.quote`). */
export function processSpan<T>(
  destination: string,
  kind: 'request' | 'event',
  system: string,
  parent: Context | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  return inSpan(
    `process ${destination}`,
    {
      kind: kind === 'request' ? SpanKind.SERVER : SpanKind.CONSUMER,
      attributes: attributes(destination, system, 'process'),
      ...(parent ? { parent } : {}),
    },
    fn,
  );
}

function attributes(destination: string, system: string, operation: string) {
  return {
    'messaging.system': system,
    'messaging.destination.name': destination,
    'messaging.operation.type': operation,
  };
}
