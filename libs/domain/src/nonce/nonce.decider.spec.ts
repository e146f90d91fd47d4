import { deciderSpec } from '@svc/testing';
import { type NonceCommand } from './nonce.commands';
import { nonceDecider, nonceStreamId } from './nonce.decider';
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
  it('names the stream after the partner and the nonce', () => {
    expect(nonceStreamId('p', 'nonce-aaaaaaaaaaaaaaaa')).toBe('nonce-p-nonce-aaaaaaaaaaaaaaaa');
  });

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
