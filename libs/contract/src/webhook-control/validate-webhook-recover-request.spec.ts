import { encodeRecoverContinuation } from './recover-continuation';
import { validateWebhookRecoverRequest } from './validate-webhook-recover-request';

const codes = (body: unknown) => {
  const result = validateWebhookRecoverRequest(body);
  return result.ok ? [] : result.errors.map((e) => `${e.code}:${e.field}`);
};

describe('validateWebhookRecoverRequest', () => {
  it('takes two ISO 8601 instants with a zone, from before to, at most 7 days apart', () => {
    expect(
      validateWebhookRecoverRequest({ from: '2026-01-01T00:00:00Z', to: '2026-01-08T00:00:00.000+00:00' }),
    ).toEqual({
      ok: true,
      value: { from: Date.parse('2026-01-01T00:00:00Z'), to: Date.parse('2026-01-08T00:00:00Z') },
    });
  });

  const from = Date.parse('2026-01-01T00:00:00Z');
  const to = Date.parse('2026-01-02T00:00:00Z');
  const range = { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' };
  const next = { after: { occurredAt: from + 1000, position: '0000000000000042' }, asOf: '0000000000000099' };

  it('takes the continuation a page of the same range returned, decoded', () => {
    expect(
      validateWebhookRecoverRequest({ ...range, continuation: encodeRecoverContinuation(from, to, next) }),
    ).toEqual({ ok: true, value: { from, to, continuation: next } });
  });

  it.each([
    [
      { ...range, continuation: encodeRecoverContinuation(from, to + 1, next) },
      ['invalid_recover_continuation:continuation'],
    ],
    [{ ...range, continuation: 'bm9wZQ' }, ['invalid_recover_continuation:continuation']],
    [{ ...range, continuation: 42 }, ['invalid_recover_continuation:continuation']],
    [{ ...range, continuation: null }, ['invalid_recover_continuation:continuation']],
    [{ from: range.from, to: 'later', continuation: 'x' }, ['invalid_recover_range:to']],
    [{ from: '2026-01-01T00:00:00Z', to: '2026-01-08T00:00:00.001Z' }, ['invalid_recover_range:to']],
    [{ from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' }, ['invalid_recover_range:to']],
    [{ from: '2026-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, ['invalid_recover_range:to']],
    [{ from: '2026-01-01', to: '2026-01-02T00:00:00Z' }, ['invalid_recover_range:from']],
    [
      { from: '2026-01-01T00:00:00', to: 1767225600000 },
      ['invalid_recover_range:from', 'invalid_recover_range:to'],
    ],
    [{ from: '2026-13-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }, ['invalid_recover_range:from']],
    [{ to: '2026-01-02T00:00:00Z' }, ['invalid_recover_range:from']],
    [
      { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z', attemptId: 'x' },
      ['unknown_field:attemptId'],
    ],
    [[], ['invalid_request_body:']],
    [undefined, ['invalid_request_body:']],
  ])('refuses %j', (body, expected) => {
    expect(codes(body)).toEqual(expected);
  });
});
