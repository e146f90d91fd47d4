import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topic } from '@svc/messaging';
import { type LifecycleMessage } from '../outbox/lifecycle-message';
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
