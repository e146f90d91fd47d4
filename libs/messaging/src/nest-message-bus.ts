import { type ClientProxy } from '@nestjs/microservices';
import { NO_MESSAGE_HANDLER } from '@nestjs/microservices/constants';
import { firstValueFrom, TimeoutError, timeout } from 'rxjs';
import { BusTimeoutError, HANDLER_DEADLINE_CODE, type MessageBus, NoHandlerError } from './message-bus.port';
import { type MessagePatternName } from './patterns';

/** MessageBus over any Nest ClientProxy (in-process here, Kafka in the distributed composition). */
export class NestMessageBus implements MessageBus {
  constructor(
    private readonly client: ClientProxy,
    /** The wire name of a pattern or topic (Kafka: KAFKA_TOPIC_PREFIX + name). */
    private readonly wireName: (name: string) => string = (name) => name,
  ) {}

  async request<TReply>(
    pattern: MessagePatternName,
    payload: unknown,
    options: { timeoutMs: number },
  ): Promise<TReply> {
    try {
      return await firstValueFrom(
        this.client.send<TReply>(this.wireName(pattern), payload).pipe(timeout(options.timeoutMs)),
      );
    } catch (err) {
      // Our own deadline, or the handler's (it gave up and said so): either way the feature did not answer in time.
      if (err instanceof TimeoutError || (err as { code?: unknown })?.code === HANDLER_DEADLINE_CODE) {
        throw new BusTimeoutError(pattern, options.timeoutMs);
      }
      if (err === NO_MESSAGE_HANDLER || (err as { message?: unknown })?.message === NO_MESSAGE_HANDLER) {
        throw new NoHandlerError(pattern);
      }
      throw err;
    }
  }

  async emit(topic: string, key: string, payload: unknown): Promise<void> {
    await firstValueFrom(this.client.emit(this.wireName(topic), { key, value: payload }), {
      defaultValue: undefined,
    });
  }
}
