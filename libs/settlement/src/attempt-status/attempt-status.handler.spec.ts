import { type BusReply, type FeatureRequest, type MessagePattern } from '@svc/messaging';
import { AttemptStatusHandler } from './attempt-status.handler';
import { type AttemptStatusService } from './attempt-status.service';
import { type ReadAttemptStatus } from './read-attempt-status.query';

const answer: BusReply<typeof MessagePattern.status> = {
  ok: false,
  code: 'attempt_not_found',
  message: 'no attempt with this id',
};

const request = (resourceId: string | null): FeatureRequest<null> => ({
  partnerId: 'partner-1',
  requestId: 'req-1',
  idempotencyKey: null,
  resourceId,
  replayOf: null,
  body: null,
  receivedAt: 1_700_000_000_000,
});

/** The handler over a use case that records its queries and answers `answer`. */
function handlerRecording() {
  const queries: ReadAttemptStatus[] = [];
  const service = {
    status: (query: ReadAttemptStatus) => {
      queries.push(query);
      return Promise.resolve(answer);
    },
  };
  return { handler: new AttemptStatusHandler(service as unknown as AttemptStatusService), queries };
}

describe('AttemptStatusHandler', () => {
  it('hands the use case a ReadAttemptStatus: the partner and the attempt of the path', async () => {
    const { handler, queries } = handlerRecording();
    await expect(handler.status(request('at_1'))).resolves.toBe(answer);
    expect(queries).toEqual([{ partnerId: 'partner-1', attemptId: 'at_1' }]);
  });

  it.each([null, ''])(
    'refuses a request with attempt id %p as an unknown attempt, reading nothing',
    async (id) => {
      const { handler, queries } = handlerRecording();
      await expect(handler.status(request(id))).resolves.toEqual({
        ok: false,
        code: 'attempt_not_found',
        message: 'no attempt with this id',
      });
      expect(queries).toEqual([]);
    },
  );
});
