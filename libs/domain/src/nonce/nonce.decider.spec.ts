import { deciderSpec } from '@svc/testing';
import { type NonceCommand } from './nonce.commands';
import { nonceBucketEvent, nonceBucketReader, nonceBucketStreamId } from './nonce-bucket';
import { nonceDecider } from './nonce.decider';
import { type NonceEvent } from './nonce.events';
import { NonceRefusedError } from './nonce-refused.error';
import { initialNonceState, nonceAvailable } from './nonce.state';

const nonce = deciderSpec(nonceDecider);
const used = (tupleHash: string, usedAt = 1000): NonceEvent => ({
  type: 'NonceUsed',
  data: { tupleHash, usedAt },
});
const use = (tupleHash: string, now = 2000): NonceCommand => ({ type: 'UseNonce', data: { tupleHash, now } });

describe('the nonce decider', () => {
  it('binds an unused nonce to the tuple', () => {
    nonce
      .given([])
      .when(use('tuple-1'))
      .then([used('tuple-1', 2000)]);
  });

  it('changes nothing for the tuple it is bound to (a retried delivery of the same signed bytes)', () => {
    nonce
      .given([used('tuple-1')])
      .when(use('tuple-1'))
      .then([]);
  });

  it('refuses another tuple', () => {
    nonce
      .given([used('tuple-1')])
      .when(use('tuple-2'))
      .thenThrows(NonceRefusedError);
  });

  it('keeps the first binding whatever follows it', () => {
    nonce
      .given([used('tuple-1'), used('tuple-2')])
      .when(use('tuple-2'))
      .thenThrows(NonceRefusedError);
  });

  it('is available unused, or to the tuple it is bound to', () => {
    const bound = nonceDecider.evolve(initialNonceState, used('tuple-1'));
    expect(nonceAvailable(initialNonceState, 'tuple-1')).toBe(true);
    expect(nonceAvailable(bound, 'tuple-1')).toBe(true);
    expect(nonceAvailable(bound, 'tuple-2')).toBe(false);
  });
});

describe('nonce buckets', () => {
  it("names a bucket after the partner's digest, the window's start (UTC) and the shard", () => {
    expect(nonceBucketStreamId('0123456789abcdef', Date.parse('2026-11-25T10:50:00Z'), 'a')).toBe(
      'nonce-0123456789abcdef-20261125T1050-a',
    );
  });

  it('stores a nonce event with its nonce, and reads it back as such', () => {
    const stored = nonceBucketEvent('nonce-aaaaaaaaaaaaaaaa', used('tuple-1'));
    expect(stored).toEqual({
      type: 'NonceUsed',
      data: { nonce: 'nonce-aaaaaaaaaaaaaaaa', tupleHash: 'tuple-1', usedAt: 1000 },
    });
    expect(nonceBucketReader.isEvent?.(stored)).toBe(true);
    expect(nonceBucketReader.evolve(null, stored)).toBe(stored);
  });

  it('takes a bucket event without its nonce or tuple as malformed, and knows no other type', () => {
    expect(nonceBucketReader.isEvent?.(used('tuple-1'))).toBe(false);
    expect(nonceBucketReader.isEvent?.({ type: 'NonceUsed', data: { nonce: 'n', usedAt: 1 } })).toBe(false);
    expect([...(nonceBucketReader.knownEventTypes ?? [])]).toEqual(['NonceUsed']);
  });
});
