import { Writable } from 'node:stream';
import { createLogger } from './logger';

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
});
