import { KafkaRequestSerializer } from '@nestjs/microservices/serializers';
import { traceCarrier } from '@svc/platform';

/**
 * The Kafka client's serializer: Nest's, plus the W3C trace context of the sending span (`traceparent`,
 * `tracestate`) as message headers, so the handler's span continues the sender's trace. Adds nothing when tracing
 * is off (no propagator is registered).
 */
export class TraceContextKafkaSerializer extends KafkaRequestSerializer {
  override serialize(value: unknown): { headers: Record<string, unknown> } {
    const message = super.serialize(value) as { headers: Record<string, unknown> };
    Object.assign(message.headers, traceCarrier());
    return message;
  }
}
