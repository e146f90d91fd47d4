import { Writable } from 'node:stream';
import { createLogger, errorLogFields } from './logger';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  it('writes JSON lines with the app name', () => {
    const { lines, destination } = capture();
    createLogger({ level: 'info', name: 'unit', destination }).info({ route: 'ping' }, 'hello');
    expect(JSON.parse(lines[0] ?? '')).toEqual(
      expect.objectContaining({ name: 'unit', route: 'ping', msg: 'hello', level: 30 }),
    );
  });

  it('redacts secret and signature fields by path', () => {
    const { lines, destination } = capture();
    createLogger({ level: 'info', name: 'unit', destination }).info({
      partner: { secret: 'abc' },
      signature: 'sig',
      req: { headers: { 'x-signature': 'h' } },
    });
    const line = JSON.parse(lines[0] ?? '');
    expect([line.partner.secret, line.signature, line.req.headers['x-signature']]).toEqual([
      '[redacted]',
      '[redacted]',
      '[redacted]',
    ]);
  });

  it('replaces known secret values wherever they appear, error messages included', () => {
    const { lines, destination } = capture();
    const logger = createLogger({
      level: 'info',
      name: 'unit',
      destination,
      secrets: ['s3cr3t-value-123', 'short'],
    });
    logger.error({ err: new Error('upstream rejected s3cr3t-value-123') }, 'failed with s3cr3t-value-123');
    expect(lines[0]).not.toContain('s3cr3t-value-123');
    expect(lines[0]).toContain('upstream rejected [redacted]');
  });

  it('logs of an error only its class, message, code, stack and causes, never the request a client kept on it (L8)', () => {
    const { lines, destination } = capture();
    const error = Object.assign(new Error('HTTP request failed.', { cause: new TypeError('fetch failed') }), {
      name: 'HttpRequestError',
      code: 'ECONNREFUSED',
      url: 'https://rpc.example/v2/alchemy-key-0123456789',
      details: 'connect ECONNREFUSED',
    });
    createLogger({ level: 'info', name: 'unit', destination }).error(
      { error: errorLogFields(error) },
      'failed',
    );
    const line = JSON.parse(lines[0] ?? '');
    expect(lines[0]).not.toContain('alchemy-key');
    expect(line.error).toMatchObject({
      type: 'HttpRequestError',
      message: 'HTTP request failed.',
      code: 'ECONNREFUSED',
      cause: { type: 'TypeError', message: 'fetch failed' },
    });
    expect(Object.keys(line.error).sort()).toEqual(['cause', 'code', 'message', 'stack', 'type']);
    expect(errorLogFields('plain')).toEqual({ type: 'string', message: 'plain' });
  });
});
