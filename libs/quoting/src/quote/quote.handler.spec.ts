import { type QuoteRequest } from '@svc/contract';
import { type BusReply, type FeatureRequest, type MessagePattern } from '@svc/messaging';
import { type QuoteIntent } from './quote-intent.command';
import { type QuoteIntentService } from './quote-intent.service';
import { QuoteHandler } from './quote.handler';

const body = { walletAddress: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' } as QuoteRequest;
const answer: BusReply<typeof MessagePattern.quote> = {
  ok: false,
  code: 'intent_session_not_found',
  message: 'the quote this key created no longer exists',
};

const envelope = (overrides: Partial<FeatureRequest<QuoteRequest>> = {}): FeatureRequest<QuoteRequest> => ({
  partnerId: 'partner-1',
  requestId: 'req-1',
  idempotencyKey: 'key-1',
  resourceId: null,
  replayOf: null,
  body,
  receivedAt: 1_700_000_000_000,
  ...overrides,
});

/** The handler over a use case that records its commands and answers `answer`. */
function handlerRecording(): { handler: QuoteHandler; commands: QuoteIntent[] } {
  const commands: QuoteIntent[] = [];
  const service = {
    quote: (command: QuoteIntent) => {
      commands.push(command);
      return Promise.resolve(answer);
    },
  };
  return { handler: new QuoteHandler(service as unknown as QuoteIntentService), commands };
}

describe('QuoteHandler', () => {
  it('hands the use case a QuoteIntent: partner, key, body and the request time', async () => {
    const { handler, commands } = handlerRecording();
    await expect(handler.quote(envelope())).resolves.toBe(answer);
    expect(commands).toEqual([
      { partnerId: 'partner-1', idempotencyKey: 'key-1', body, now: 1_700_000_000_000, replayOf: null },
    ]);
  });

  it('passes a replay on as the id of the session the key created', async () => {
    const { handler, commands } = handlerRecording();
    await handler.quote(envelope({ replayOf: { kind: 'intent_session', id: 'is_1' } }));
    expect(commands[0]?.replayOf).toBe('is_1');
  });
});
