import { type SubmittedRequest } from '@svc/contract';
import { type BusReply, type FeatureRequest, type MessagePattern } from '@svc/messaging';
import { type SubmitEvidence } from './submit-evidence.command';
import { SubmitEvidenceHandler } from './submit-evidence.handler';
import { type SubmitEvidenceService } from './submit-evidence.service';

const T = 1_700_000_000_000;
const body: SubmittedRequest = {
  chainResults: [{ chainId: 1, bundleId: null, txHashes: [`0x${'1'.repeat(64)}`], quoteResults: [] }],
  walletAuthorization: null,
  submittedAt: null,
};
const answer: BusReply<typeof MessagePattern.submit> = {
  ok: false,
  code: 'evidence_deadline_passed',
  message: 'evidence came after the deadline',
};

const request = (
  overrides: Partial<FeatureRequest<SubmittedRequest>> = {},
): FeatureRequest<SubmittedRequest> => ({
  partnerId: 'partner-1',
  requestId: 'req-1',
  idempotencyKey: 'key-1',
  resourceId: 'at_1',
  replayOf: null,
  body,
  receivedAt: T,
  ...overrides,
});

/** The handler over a use case that records its commands and answers `answer`. */
function handlerRecording() {
  const commands: SubmitEvidence[] = [];
  const service = {
    submit: (command: SubmitEvidence) => {
      commands.push(command);
      return Promise.resolve(answer);
    },
  };
  return { handler: new SubmitEvidenceHandler(service as unknown as SubmitEvidenceService), commands };
}

describe('SubmitEvidenceHandler', () => {
  it('hands the use case a SubmitEvidence: partner, attempt, key, request id, body and the request time', async () => {
    const { handler, commands } = handlerRecording();
    await expect(handler.submit(request())).resolves.toBe(answer);
    expect(commands).toEqual([
      {
        partnerId: 'partner-1',
        attemptId: 'at_1',
        idempotencyKey: 'key-1',
        requestId: 'req-1',
        body,
        now: T,
        replayOf: null,
      },
    ]);
  });

  it('passes a replay on as the id of the attempt the key reported on', async () => {
    const { handler, commands } = handlerRecording();
    await handler.submit(request({ replayOf: { kind: 'attempt', id: 'at_1' } }));
    expect(commands[0]?.replayOf).toBe('at_1');
  });

  it.each([null, ''])(
    'refuses a request with attempt id %p as an unknown attempt, asking no use case',
    async (id) => {
      const { handler, commands } = handlerRecording();
      await expect(handler.submit(request({ resourceId: id }))).resolves.toEqual({
        ok: false,
        code: 'attempt_not_found',
        message: 'no attempt with this id',
      });
      expect(commands).toEqual([]);
    },
  );
});
