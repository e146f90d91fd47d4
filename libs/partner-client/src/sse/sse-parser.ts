/** One Server-Sent Events message, as dispatched at its blank line. */
export interface SseMessage {
  /** The last event id when this message was dispatched ('' when none was ever set): it persists to later messages. */
  id: string;
  /** The `event:` field; 'message' when it had none. */
  event: string;
  /** The `data:` lines joined with LF. */
  data: string;
}

/**
 * An incremental parser of the `text/event-stream` format (WHATWG HTML, "Server-sent events"): feed it text as it
 * arrives, in chunks cut anywhere, and it returns the messages completed so far. Comments (`:` lines, the
 * service's heartbeats) and messages without data are skipped; CRLF, CR and LF all end a line. As the standard says,
 * `id` sets the last event id, which persists to later messages until another `id` changes it, and `retry` (ASCII
 * digits only) sets the reconnection time the server asks for (`retryMs`). The Python and Go SDKs parse alike.
 */
export class SseParser {
  /** The last valid `retry:` field, in ms: how long the server asks a client to wait before reconnecting. */
  retryMs: number | null = null;
  private buffer = '';
  private id = '';
  private event = '';
  private data: string[] = [];
  private pendingCr = false;

  push(text: string): SseMessage[] {
    let chunk = text;
    // A CR that ended the previous chunk may be the first half of a CRLF.
    if (this.pendingCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
    this.pendingCr = chunk.endsWith('\r');
    this.buffer += chunk;
    const messages: SseMessage[] = [];
    const lines = this.buffer.split(/\r\n|\r|\n/);
    this.buffer = lines.pop() ?? '';
    for (const line of lines) {
      const message = this.line(line);
      if (message !== null) messages.push(message);
    }
    return messages;
  }

  private line(line: string): SseMessage | null {
    if (line === '') {
      const message =
        this.data.length === 0
          ? null
          : { id: this.id, event: this.event || 'message', data: this.data.join('\n') };
      this.event = '';
      this.data = [];
      return message;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    else if (field === 'retry' && /^[0-9]+$/.test(value)) this.retryMs = Number(value);
    return null;
  }
}
