import { Logger } from '@nestjs/common';
import { type WritePacket } from '@nestjs/microservices';
import { attemptIdFor, type PrepareRequest } from '@svc/contract';
import { register } from 'prom-client';
import { type BusReply, type BusRequest } from './bus-contract';
import { type FeatureRequest, type PreconditionProbe } from './envelopes';
import { MessagePattern, type MessagePatternName } from './patterns';
import { bindReply } from './reply-binding';
import { replyMismatch, type ReplyMismatch } from './reply-rules';
import { screenReplies } from './reply-screen';

// Given a request the gateway sent, when a reply arrives for it, then it is taken only if it answers that request:
// its binding (operation, requestId, partnerId, resourceId) is the request's and its answer names what the request
// named. Review M6 / N-M8.

const T = 1_700_000_000_000;

function request<B>(
  resourceId: string | null,
  body: B,
  overrides: Partial<Omit<FeatureRequest<B>, 'body'>> = {},
): FeatureRequest<B> {
  return {
    partnerId: 'partner-a',
    requestId: 'req-1',
    idempotencyKey: 'key-1',
    resourceId,
    replayOf: null,
    body,
    receivedAt: T,
    ...overrides,
  };
}

const prepareRequest = request<PrepareRequest>('is_1', {});
const attemptOfA = attemptIdFor('partner-a', 'is_1', 'key-1');

function prepareAnswer(
  attemptId = attemptOfA,
  intentSessionId = 'is_1',
): BusReply<typeof MessagePattern.prepare> {
  return {
    ok: true,
    body: {
      attemptId,
      intentSessionId,
      status: 'prepared',
      expiresAt: '2030-01-01T00:00:30.000Z',
      chainActions: [],
      walletAuthorization: null,
    },
    resource: { kind: 'attempt', id: attemptId },
  };
}

const statusRequest = request<null>('at_1', null, { idempotencyKey: null });
function statusAnswer(attemptId = 'at_1', partnerId = 'partner-a'): BusReply<typeof MessagePattern.status> {
  return {
    ok: true,
    body: {
      attemptId,
      intentSessionId: 'is_1',
      partnerId,
      status: 'settled',
      currentStatus: 'settled',
      walletAddress: '0x2222222222222222222222222222222222222222',
      recipient: '0x2222222222222222222222222222222222222222',
      submittedAt: T,
      perChainStatus: [],
      settledOutputs: [],
    },
    resource: null,
  };
}

/** What a feature's bus server sends for `answer` to `sent` on `operation`. */
const bound = (operation: MessagePatternName, sent: FeatureRequest, answer: unknown) =>
  bindReply(operation, sent, answer) as Record<string, unknown> & { inReplyTo: Record<string, unknown> };

function mismatch<P extends MessagePatternName>(operation: P, sent: BusRequest<P>, reply: unknown) {
  return replyMismatch(operation, sent, reply);
}

describe('a reply answers its request (replyMismatch)', () => {
  describe('given a prepare of partner-a for intent session is_1 with Idempotency-Key key-1', () => {
    const genuine = bound(MessagePattern.prepare, prepareRequest, prepareAnswer());

    it('then the feature’s reply, bound to it, is taken', () => {
      expect(mismatch(MessagePattern.prepare, prepareRequest, genuine)).toBeNull();
    });

    it.each<[string, unknown, ReplyMismatch]>([
      ['not an object', 'forged', 'malformed'],
      ['without ok', { body: {} }, 'malformed'],
      ['without a binding (unbound, as every reply was before)', prepareAnswer(), 'unbound'],
      [
        'bound to another operation',
        { ...genuine, inReplyTo: { ...genuine.inReplyTo, operation: MessagePattern.status } },
        'operation',
      ],
      [
        'bound to another request',
        { ...genuine, inReplyTo: { ...genuine.inReplyTo, requestId: 'req-2' } },
        'request',
      ],
      [
        'bound to another partner',
        { ...genuine, inReplyTo: { ...genuine.inReplyTo, partnerId: 'mallory' } },
        'partner',
      ],
      [
        'bound to another intent session',
        { ...genuine, inReplyTo: { ...genuine.inReplyTo, resourceId: 'is_2' } },
        'resource',
      ],
      [
        'naming another partner’s attempt of the same session and key',
        {
          ...bound(
            MessagePattern.prepare,
            prepareRequest,
            prepareAnswer(attemptIdFor('mallory', 'is_1', 'key-1')),
          ),
        },
        'resource',
      ],
      [
        'naming an attempt of its own choosing',
        bound(MessagePattern.prepare, prepareRequest, prepareAnswer('at_forged')),
        'resource',
      ],
      [
        'naming another intent session',
        bound(MessagePattern.prepare, prepareRequest, prepareAnswer(attemptOfA, 'is_2')),
        'resource',
      ],
      [
        'recording another resource in the idempotency ledger',
        { ...genuine, resource: { kind: 'attempt', id: 'at_forged' } },
        'resource',
      ],
      ['without a body', { ...genuine, body: null }, 'malformed'],
      ['whose body is not the answer’s shape', { ...genuine, body: { chainActions: 'x' } }, 'resource'],
      [
        'refusing with a code the API does not have',
        { ...genuine, ok: false, code: 'pwned', message: 'x' },
        'malformed',
      ],
    ])('when a reply comes %s, then it is dropped', (_, reply, reason) => {
      expect(mismatch(MessagePattern.prepare, prepareRequest, reply)).toBe(reason);
    });

    it('when a refusal bound to it comes, then it is taken: it carries no data', () => {
      const refusal = { ok: false, code: 'intent_session_expired', message: 'the quote expired' };
      expect(
        mismatch(
          MessagePattern.prepare,
          prepareRequest,
          bound(MessagePattern.prepare, prepareRequest, refusal),
        ),
      ).toBeNull();
    });

    it('when it replays the attempt its key created, then the answer must name that attempt', () => {
      const replay = { ...prepareRequest, replayOf: { kind: 'attempt' as const, id: 'at_first' } };
      expect(
        mismatch(
          MessagePattern.prepare,
          replay,
          bound(MessagePattern.prepare, replay, prepareAnswer('at_first')),
        ),
      ).toBeNull();
      expect(
        mismatch(MessagePattern.prepare, replay, bound(MessagePattern.prepare, replay, prepareAnswer())),
      ).toBe('resource');
    });

    it('when it was a precondition probe, then an ok answer is dropped: a probe is only ever refused', () => {
      const probe: PreconditionProbe = {
        ...prepareRequest,
        idempotencyKey: null,
        replayOf: null,
        body: null,
        rejectedBody: [],
      };
      expect(
        mismatch(MessagePattern.prepare, probe, bound(MessagePattern.prepare, probe, prepareAnswer())),
      ).toBe('malformed');
    });
  });

  describe('given a status read of partner-a for attempt at_1', () => {
    it('then the snapshot of at_1 of partner-a is taken', () => {
      expect(
        mismatch(
          MessagePattern.status,
          statusRequest,
          bound(MessagePattern.status, statusRequest, statusAnswer()),
        ),
      ).toBeNull();
    });

    it.each<[string, unknown, ReplyMismatch]>([
      ['of another attempt', bound(MessagePattern.status, statusRequest, statusAnswer('at_2')), 'resource'],
      [
        'of another partner’s attempt',
        bound(MessagePattern.status, statusRequest, statusAnswer('at_1', 'mallory')),
        'partner',
      ],
      ['bound to a prepare', bound(MessagePattern.prepare, statusRequest, statusAnswer()), 'operation'],
    ])('when the snapshot comes %s, then it is dropped', (_, reply, reason) => {
      expect(mismatch(MessagePattern.status, statusRequest, reply)).toBe(reason);
    });
  });

  describe('given the other operations', () => {
    const snapshot = statusAnswer() as Extract<BusReply<typeof MessagePattern.status>, { ok: true }>;
    const txHash = `0x${'ab'.repeat(32)}`;
    const cases: [string, MessagePatternName, FeatureRequest, unknown, ReplyMismatch | null][] = [
      [
        'quote: the session it created (taken)',
        MessagePattern.quote,
        request(null, {}),
        { ok: true, body: { intentSessionId: 'is_9' }, resource: { kind: 'intent_session', id: 'is_9' } },
        null,
      ],
      [
        'quote replay: another session than the one replayed (dropped)',
        MessagePattern.quote,
        request(null, {}, { replayOf: { kind: 'intent_session', id: 'is_1' } }),
        { ok: true, body: { intentSessionId: 'is_9' }, resource: { kind: 'intent_session', id: 'is_9' } },
        'resource',
      ],
      [
        'submit: the attempt in the path (taken)',
        MessagePattern.submit,
        request('at_1', {}),
        { ...snapshot, resource: { kind: 'attempt', id: 'at_1' } },
        null,
      ],
      [
        'submit: another partner’s snapshot (dropped)',
        MessagePattern.submit,
        request('at_1', {}),
        {
          ...snapshot,
          body: { ...snapshot.body, partnerId: 'mallory' },
          resource: { kind: 'attempt', id: 'at_1' },
        },
        'partner',
      ],
      [
        'transaction lookup: the transaction in the path (taken)',
        MessagePattern.transactionAttempt,
        request(`8453/${txHash.toUpperCase().replace('0X', '0x')}`, null),
        {
          ...snapshot,
          body: { ...snapshot.body, matchedTransaction: { chainId: 8453, txHash, role: 'source' } },
        },
        null,
      ],
      [
        'transaction lookup: another transaction (dropped)',
        MessagePattern.transactionAttempt,
        request(`8453/${txHash}`, null),
        {
          ...snapshot,
          body: { ...snapshot.body, matchedTransaction: { chainId: 1, txHash, role: 'source' } },
        },
        'resource',
      ],
      [
        'redeliver: another event (dropped)',
        MessagePattern.webhookRedeliver,
        request('evt_1', null),
        {
          ok: true,
          body: { eventId: 'evt_2', attemptId: 'at_1' },
          resource: { kind: 'attempt', id: 'at_1' },
        },
        'resource',
      ],
      [
        'recover: the range asked for (taken)',
        MessagePattern.webhookRecover,
        request(null, { from: T, to: T + 60_000 }),
        {
          ok: true,
          body: { from: new Date(T).toISOString(), to: new Date(T + 60_000).toISOString(), recovered: [] },
          resource: null,
        },
        null,
      ],
      [
        'recover: another range (dropped)',
        MessagePattern.webhookRecover,
        request(null, { from: T, to: T + 60_000 }),
        {
          ok: true,
          body: { from: new Date(0).toISOString(), to: new Date(T + 60_000).toISOString(), recovered: [] },
          resource: null,
        },
        'resource',
      ],
      [
        'search: a page (taken)',
        MessagePattern.searchAttempts,
        request(null, {}),
        { ok: true, body: { attempts: [], nextCursor: null }, resource: null },
        null,
      ],
      [
        'webhook events: a page (taken)',
        MessagePattern.webhookEvents,
        request(null, null),
        { ok: true, body: { events: [] }, resource: null },
        null,
      ],
    ];

    it.each(cases)(
      'when the answer to %s comes bound to its request',
      (_, operation, sent, answer, expected) => {
        expect(replyMismatch(operation, sent, bound(operation, sent, answer))).toBe(expected);
      },
    );
  });
});

describe('the bus client takes only the reply that answers its request (screenReplies)', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  async function refused(): Promise<number> {
    const metric = register.getSingleMetric('intent_bus_replies_refused_total');
    return metric ? (await metric.get()).values.reduce((sum, v) => sum + v.value, 0) : 0;
  }

  it('given a pending prepare, when forged replies come before the genuine one, then the caller gets only the genuine one, without its binding, and each forgery is counted', async () => {
    const delivered: WritePacket[] = [];
    const before = await refused();
    const deliver = screenReplies(MessagePattern.prepare, prepareRequest, (p) => delivered.push(p));
    const genuine = bound(MessagePattern.prepare, prepareRequest, prepareAnswer());
    deliver({ response: prepareAnswer('at_forged'), isDisposed: true });
    deliver({
      response: { ...genuine, inReplyTo: { ...genuine.inReplyTo, partnerId: 'mallory' } },
      isDisposed: true,
    });
    deliver({ response: null, isDisposed: true });
    expect(delivered).toEqual([]);
    deliver({ response: genuine, isDisposed: true });
    expect(delivered).toEqual([{ response: prepareAnswer(), isDisposed: true }]);
    expect((await refused()) - before).toBe(3);
    // One warning per forgery: who asked and why, nothing of the reply.
    expect(warn).toHaveBeenCalledTimes(3);
    expect(warn).toHaveBeenCalledWith({
      msg: 'bus reply dropped: it does not answer its request',
      pattern: MessagePattern.prepare,
      requestId: 'req-1',
      partnerId: 'partner-a',
      reason: 'unbound',
    });
    expect(JSON.stringify(warn.mock.calls)).not.toMatch(/at_forged|mallory|chainActions/);
  });

  it('given a pending request, when an error reply comes, then it ends the request as an error: it carries no data', () => {
    const delivered: WritePacket[] = [];
    screenReplies(MessagePattern.status, statusRequest, (p) => delivered.push(p))({
      err: 'boom',
      isDisposed: true,
    });
    expect(delivered).toEqual([{ err: 'boom', isDisposed: true }]);
  });

  it('given a payload that is no FeatureRequest (a transport test’s own), when its reply comes, then it is not screened', () => {
    const delivered: WritePacket[] = [];
    screenReplies(MessagePattern.quote, { n: 1 }, (p) => delivered.push(p))({
      response: { n: 2 },
      isDisposed: true,
    });
    expect(delivered).toEqual([{ response: { n: 2 }, isDisposed: true }]);
  });
});
