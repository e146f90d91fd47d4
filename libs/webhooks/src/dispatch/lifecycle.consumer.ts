import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type LifecycleMessage, Topic } from '@svc/messaging';
import { WebhookDispatcher } from './webhook-dispatcher';

/** `attempt.lifecycle` from the outbox relay (at-least-once; the dispatcher dedupes by eventId). */
@Controller()
export class LifecycleConsumer {
  constructor(private readonly dispatcher: WebhookDispatcher) {}

  @EventPattern(Topic.attemptLifecycle)
  onLifecycle(@Payload() message: { key: string; value: LifecycleMessage }): Promise<void> {
    return this.dispatcher.queue(message.value);
  }
}
