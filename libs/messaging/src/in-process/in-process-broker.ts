import { type ReadPacket, type WritePacket } from '@nestjs/microservices';
import { NO_MESSAGE_HANDLER } from '@nestjs/microservices/constants';

export type PacketSink = (packet: WritePacket & { id: string }) => void;

export interface ServerEndpoint {
  handles(pattern: string): boolean;
  /** For an event, resolves once the handlers ran (so "accepted" means handled, as a Kafka ack means stored). */
  receive(packet: ReadPacket & { id?: string }, reply: PacketSink): void | Promise<void>;
}

/**
 * The wire between in-process clients and servers. Packets cross it as JSON text, exactly as they would
 * cross Kafka, so a value that would not survive serialization (bigint, Date, class instance) fails here too.
 * A request goes to the first server that handles its pattern; an event goes to every server that does.
 */
export class InProcessBroker {
  private readonly servers = new Set<ServerEndpoint>();

  attach(server: ServerEndpoint): () => void {
    this.servers.add(server);
    return () => this.servers.delete(server);
  }

  deliver(packet: ReadPacket & { id?: string }, reply: PacketSink): Promise<void> {
    const pattern = typeof packet.pattern === 'string' ? packet.pattern : JSON.stringify(packet.pattern);
    const wire = JSON.parse(JSON.stringify(packet)) as ReadPacket & { id?: string };
    const replyOverWire: PacketSink = (p) =>
      reply(JSON.parse(JSON.stringify(p)) as WritePacket & { id: string });
    const targets = [...this.servers].filter((s) => s.handles(pattern));
    if (wire.id === undefined) {
      return Promise.all(targets.map((server) => Promise.resolve(server.receive(wire, replyOverWire)))).then(
        () => undefined,
      );
    }
    const [server] = targets;
    if (!server) {
      replyOverWire({ id: wire.id, err: NO_MESSAGE_HANDLER, isDisposed: true });
      return Promise.resolve();
    }
    void server.receive(wire, replyOverWire);
    return Promise.resolve();
  }
}
