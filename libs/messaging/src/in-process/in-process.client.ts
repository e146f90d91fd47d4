import { ClientProxy, type MsPattern, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import { screenReplies } from '../reply-screen';
import { type InProcessBroker } from './in-process-broker';

/**
 * Nest client over an InProcessBroker; `send` / `emit` behave as with any Nest transport, and a reply is screened
 * against its request as over Kafka (reply-screen.ts).
 */
export class InProcessClient extends ClientProxy {
  constructor(private readonly broker: InProcessBroker) {
    super();
  }

  connect(): Promise<void> {
    return Promise.resolve();
  }

  close(): void {
    // nothing to release
  }

  unwrap<T>(): T {
    return this.broker as T;
  }

  protected publish(partialPacket: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const packet = this.assignPacketId(partialPacket);
    const deliver = screenReplies(this.normalizePattern(packet.pattern as MsPattern), packet.data, callback);
    let active = true;
    void this.broker.deliver(packet, (response) => {
      if (active) deliver(response);
    });
    return () => {
      active = false;
    };
  }

  /** Resolves once every handler of the event ran; rejects when one failed (the sender may then redeliver). */
  protected async dispatchEvent<T = unknown>(packet: ReadPacket): Promise<T> {
    await this.broker.deliver(packet, () => undefined);
    return undefined as T;
  }
}
