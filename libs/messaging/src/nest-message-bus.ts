import { type ClientProxy } from '@nestjs/microservices';
import { NO_MESSAGE_HANDLER } from '@nestjs/microservices/constants';
import { firstValueFrom, TimeoutError, timeout } from 'rxjs';
import { type FeatureExchanges } from './bus-contract';
import { sendSpan } from './bus-spans';
import {
  BusTimeoutError,
  type Exchanges,
  HANDLER_DEADLINE_CODE,
  type MessageBus,
  NoHandlerError,
} from './message-bus.port';

/** MessageBus over any Nest ClientProxy (in-process here, Kafka in the distributed composition). */
export class NestMessageBus<E extends Exchanges = FeatureExchanges> implements MessageBus<E> {
  constructor(
    private readonly client: ClientProxy,
    /** The wire name of a pattern or topic (Kafka: KAFKA_TOPIC_PREFIX + name). */
    private readonly wireName: (name: string) => string = (name) => name,
    /** `messaging.system` on the send spans. */
    private readonly system = 'inprocess',
  ) {}

  async request<P extends keyof E & string>(
    pattern: P,
    payload: E[P]['request'],
    options: { timeoutMs: number },
  ): Promise<E[P]['reply']> {
    return sendSpan(pattern, 'request', this.system, () => this.send(pattern, payload, options));
  }

  async emit(topic: string, key: string, payload: unknown): Promise<void> {
    await sendSpan(topic, 'event', this.system, () =>
      firstValueFrom(this.client.emit(this.wireName(topic), { key, value: payload }), {
        defaultValue: undefined,
      }),
    );
  }

  private async send<P extends keyof E & string>(
    pattern: P,
    payload: E[P]['request'],
    options: { timeoutMs: number },
  ): Promise<E[P]['reply']> {
    try {
      return await firstValueFrom(
        this.client.send<E[P]['reply']>(this.wireName(pattern), payload).pipe(timeout(options.timeoutMs)),
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
}
