import { type FieldError, type PrepareRequest } from '@svc/contract';
import {
  type BusReply,
  type FeatureRequest,
  type MessagePattern,
  type PreconditionProbe,
} from '@svc/messaging';
import { type CheckPreconditions } from './check-preconditions.command';
import { type PrepareAttempt } from './prepare-attempt.command';
import { PrepareAttemptHandler } from './prepare-attempt.handler';
import { type PrepareAttemptService } from './prepare-attempt.service';

const T = 1_700_000_000_000;
const body: PrepareRequest = { callbackUrl: 'https://partner.example/hooks' };
const answer: BusReply<typeof MessagePattern.prepare> = {
  ok: false,
  code: 'intent_session_expired',
  message: 'the quote expired; request a new quote',
};
const bodyErrors: FieldError[] = [
  { field: 'callbackUrl', code: 'invalid_request_body', message: 'must be the configured callbackUrl' },
];

const request = (
  overrides: Partial<FeatureRequest<PrepareRequest>> = {},
): FeatureRequest<PrepareRequest> => ({
  partnerId: 'partner-1',
  requestId: 'req-1',
  idempotencyKey: 'key-1',
  resourceId: 'is_1',
  replayOf: null,
  body,
  receivedAt: T,
  ...overrides,
});

const probe = (overrides: Partial<PreconditionProbe> = {}): PreconditionProbe => ({
  partnerId: 'partner-1',
  requestId: 'req-2',
  idempotencyKey: null,
  resourceId: 'is_1',
  replayOf: null,
  body: null,
  rejectedBody: bodyErrors,
  receivedAt: T,
  ...overrides,
});

/** The handler over use cases that record their commands and answer `answer`. */
function handlerRecording() {
  const prepared: PrepareAttempt[] = [];
  const checked: CheckPreconditions[] = [];
  const service = {
    prepare: (command: PrepareAttempt) => {
      prepared.push(command);
      return Promise.resolve(answer);
    },
    checkPreconditions: (command: CheckPreconditions) => {
      checked.push(command);
      return Promise.resolve(answer);
    },
  };
  return {
    handler: new PrepareAttemptHandler(service as unknown as PrepareAttemptService),
    prepared,
    checked,
  };
}

describe('PrepareAttemptHandler', () => {
  it('hands a request to prepare as a PrepareAttempt: partner, session, key, body and the request time', async () => {
    const { handler, prepared, checked } = handlerRecording();
    await expect(handler.prepare(request())).resolves.toBe(answer);
    expect(prepared).toEqual([
      {
        partnerId: 'partner-1',
        intentSessionId: 'is_1',
        idempotencyKey: 'key-1',
        body,
        now: T,
        replayOf: null,
      },
    ]);
    expect(checked).toEqual([]);
  });

  it('passes a replay on as the id of the attempt the key created', async () => {
    const { handler, prepared } = handlerRecording();
    await handler.prepare(request({ replayOf: { kind: 'attempt', id: 'at_1' } }));
    expect(prepared[0]?.replayOf).toBe('at_1');
  });

  it('hands a precondition probe to checkPreconditions, never to prepare', async () => {
    const { handler, prepared, checked } = handlerRecording();
    await expect(handler.prepare(probe())).resolves.toBe(answer);
    expect(checked).toEqual([{ partnerId: 'partner-1', intentSessionId: 'is_1', now: T, bodyErrors }]);
    expect(prepared).toEqual([]);
  });

  it.each([
    ['a request', request({ resourceId: null })],
    ['a request with an empty id', request({ resourceId: '' })],
    ['a probe', probe({ resourceId: null })],
  ])('refuses %s without a session id as an unknown session, asking no use case', async (_, envelope) => {
    const { handler, prepared, checked } = handlerRecording();
    await expect(handler.prepare(envelope)).resolves.toEqual({
      ok: false,
      code: 'intent_session_not_found',
      message: 'no intent session with this id',
    });
    expect([...prepared, ...checked]).toEqual([]);
  });
});
