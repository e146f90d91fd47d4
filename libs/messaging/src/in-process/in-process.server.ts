import { type CustomTransportStrategy, type ReadPacket, Server } from '@nestjs/microservices';
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
      receive: (packet, reply) => void this.handlePacket(packet, reply),
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

  private async handlePacket(packet: ReadPacket & { id?: string }, reply: PacketSink): Promise<void> {
    const pattern = this.getPatternAsString(packet.pattern);
    if (packet.id === undefined) {
      await this.handleEvent(pattern, packet, undefined as never);
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
