import fc from 'fast-check';
import { type SseMessage, SseParser } from './sse-parser';

const STREAM =
  ': live status of the attempt\n\n' +
  'id: evt_1\nevent: wallet_submitted\ndata: {"eventId":"evt_1"}\n\n' +
  ': heartbeat\n\n' +
  'id: evt_2\r\nevent: settled\r\ndata: {"a":\r\ndata: 1}\r\n\r\n' +
  'data:no space\rid:evt_3\r\r';

const EXPECTED: SseMessage[] = [
  { id: 'evt_1', event: 'wallet_submitted', data: '{"eventId":"evt_1"}' },
  { id: 'evt_2', event: 'settled', data: '{"a":\n1}' },
  { id: 'evt_3', event: 'message', data: 'no space' },
];

describe('SseParser', () => {
  it('dispatches each message at its blank line, skipping comments and heartbeats, with LF, CRLF or CR', () => {
    expect(new SseParser().push(STREAM)).toEqual(EXPECTED);
  });

  it('gives the same messages however the stream is cut into chunks', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: STREAM.length - 1 }), { maxLength: 12 }),
        (cuts) => {
          const parser = new SseParser();
          const at = [0, ...cuts.sort((a, b) => a - b), STREAM.length];
          const got = at.slice(1).flatMap((end, i) => parser.push(STREAM.slice(at[i], end)));
          expect(got).toEqual(EXPECTED);
        },
      ),
    );
  });

  it('holds back a message until its blank line arrives', () => {
    const parser = new SseParser();
    expect(parser.push('id: evt_1\ndata: x\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ id: 'evt_1', event: 'message', data: 'x' }]);
  });
});

describe('SseParser, the last event id and retry (WHATWG "Interpreting an event stream")', () => {
  it('keeps the last event id for later messages until another id changes it', () => {
    const parser = new SseParser();
    expect(parser.push('id: evt_1\ndata: a\n\ndata: b\n\nid: evt_2\ndata: c\n\nid\ndata: d\n\n')).toEqual([
      { id: 'evt_1', event: 'message', data: 'a' },
      { id: 'evt_1', event: 'message', data: 'b' },
      { id: 'evt_2', event: 'message', data: 'c' },
      { id: '', event: 'message', data: 'd' },
    ]);
  });

  it('reads retry as the reconnection time, digits only', () => {
    const parser = new SseParser();
    expect(parser.retryMs).toBeNull();
    parser.push('retry: 2500\n\n');
    expect(parser.retryMs).toBe(2500);
    parser.push('retry: 3s\nretry: -1\nretry:\n\n');
    expect(parser.retryMs).toBe(2500);
  });
});
