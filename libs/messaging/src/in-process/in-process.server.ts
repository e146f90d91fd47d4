import {
  type CustomTransportStrategy,
  type MessageHandler,
  type MsPattern,
  type ReadPacket,
  Server,
} from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import { processSpan } from '../bus-spans';
import { bindingReplies } from '../reply-binding';
import { type InProcessBroker, type PacketSink } from './in-process-broker';

/**
 * Nest transport strategy over an InProcessBroker: serves the same @MessagePattern / @EventPattern handlers
 * that the Kafka transport serves in the distributed composition.
 */
export class InProcessServer extends Server implements CustomTransportStrategy {
  private detach: (() => void) | undefined;

  constructor(private readonly broker: InProcessBroker) {
    super();
  }

  listen(callback: () => void): void {
    this.detach = this.broker.attach({
      handles: (pattern) => this.messageHandlers.has(pattern),
      // In one process the sender's span is still the active one (AsyncLocalStorage): the handler's span is its child.
      receive: (packet, reply) =>
        processSpan(
          this.getPatternAsString(packet.pattern),
          packet.id === undefined ? 'event' : 'request',
          'inprocess',
          undefined,
          () => this.handlePacket(packet, reply),
        ),
    });
    callback();
  }

  close(): void {
    this.detach?.();
    this.detach = undefined;
  }

  on(): void {
    // an in-process transport has no connection events
  }

  unwrap<T>(): T {
    return this.broker as T;
  }

  /** A request handler's replies carry their binding to the request (reply-binding.ts), as over Kafka. */
  override addHandler(
    pattern: MsPattern,
    callback: MessageHandler,
    isEventHandler = false,
    extras: Record<string, unknown> = {},
  ): void {
    const handler = isEventHandler ? callback : bindingReplies(this.normalizePattern(pattern), callback);
    super.addHandler(pattern, handler, isEventHandler, extras);
  }

  /**
   * Our patterns are plain strings, registered as they are: look them up directly. Nest's own lookup first tries
   * `JSON.parse` on the pattern, which throws (and is caught) for every such string, on every request.
   */
  override getHandlerByPattern(pattern: string): ReturnType<Server['getHandlerByPattern']> {
    return this.messageHandlers.get(pattern) ?? super.getHandlerByPattern(pattern);
  }

  private async handlePacket(packet: ReadPacket & { id?: string }, reply: PacketSink): Promise<void> {
    const pattern = this.getPatternAsString(packet.pattern);
    if (packet.id === undefined) {
      // Resolve once the handler ran to completion, so an emit is "accepted" only when it was handled; a failing
      // handler (surfacing through Nest's exception filter as an error of the stream) rejects the emit.
      const handler = this.getHandlerByPattern(pattern);
      if (handler)
        await lastValueFrom(this.transformToObservable(await handler(packet.data, undefined)), {
          defaultValue: undefined,
        });
      return;
    }
    const id = packet.id;
    const handler = this.getHandlerByPattern(pattern);
    if (!handler) return; // the broker only routes patterns this server handles
    try {
      const response$ = this.transformToObservable(await handler(packet.data, undefined));
      this.send(response$, (data) => reply({ ...data, id }));
    } catch (err) {
      reply({ id, err: err instanceof Error ? err.message : String(err), isDisposed: true });
    }
  }
}
