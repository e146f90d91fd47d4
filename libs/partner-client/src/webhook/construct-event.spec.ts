import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constructEvent, WebhookSignatureError } from './construct-event';

interface WebhookCase {
  name: string;
  headers: Record<string, string | string[]>;
  body: { base64: string };
  verifier: { partnerId: string; secrets: string[]; nowMs: number; toleranceMs: number };
  expected: { ok: true; eventId: string } | { ok: false; reason: string };
}
const vectors = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', '..', 'sdks', 'vectors', 'webhooks.json'), 'utf8'),
) as { cases: WebhookCase[] };

describe('constructEvent over every case of sdks/vectors/webhooks.json', () => {
  it.each(vectors.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const raw = Buffer.from(c.body.base64, 'base64');
    const secrets = c.verifier.secrets.length === 1 ? c.verifier.secrets[0] : c.verifier.secrets;
    const run = () =>
      constructEvent(raw, c.headers, secrets, {
        partnerId: c.verifier.partnerId,
        now: c.verifier.nowMs,
        toleranceMs: c.verifier.toleranceMs,
      });
    if (c.expected.ok) {
      expect(run().eventId).toBe(c.expected.eventId);
    } else {
      let thrown: unknown;
      try {
        run();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(WebhookSignatureError);
      expect((thrown as WebhookSignatureError).reason).toBe(c.expected.reason);
    }
  });

  it('accepts the raw bytes as a Uint8Array too', () => {
    const c = vectors.cases.find((x) => x.expected.ok)!;
    const bytes = new Uint8Array(Buffer.from(c.body.base64, 'base64'));
    const event = constructEvent(bytes, c.headers, c.verifier.secrets, {
      partnerId: c.verifier.partnerId,
      now: c.verifier.nowMs,
    });
    expect(event.eventId).toBe((c.expected as { eventId: string }).eventId);
  });
});
