import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AuthenticationError,
  ConflictError,
  type IntentApiError,
  NotFoundError,
  ValidationError,
} from './errors/intent-api-error';
import { IntentClient, operations } from './intent-client';
import { PartnerClientError } from './partner-client.error';
import {
  type PartnerTestServer,
  type Received,
  startPartnerTestServer,
} from './partner-test-server.test-helper';

const repoRoot = join(__dirname, '..', '..', '..');
const readJson = <T>(...path: string[]) => JSON.parse(readFileSync(join(repoRoot, ...path), 'utf8')) as T;
const openapi = readJson<{ paths: Record<string, Record<string, { operationId?: string }>> }>(
  'docs',
  'openapi.json',
);
const idempotency = readJson<{
  scenarios: {
    name: string;
    expected: { outcome: string; status?: number; code?: string; retryAfterSeconds?: number };
  }[];
}>('sdks', 'vectors', 'idempotency.json');
const cursors = readJson<{
  searchAttempts: { roundTrips: { cursor: string }[] };
  webhookEvents: { roundTrips: { cursor: string }[] };
}>('sdks', 'vectors', 'cursors.json');

const partner = { partnerId: 'partner-v2', secret: 'secret-v2-0123456789', authVersion: 2 as const };
const WALLET = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
let server: PartnerTestServer;
beforeEach(async () => {
  server = await startPartnerTestServer([partner]);
});
afterEach(() => server.close());

const client = (extra: Record<string, unknown> = {}) =>
  new IntentClient({ baseUrl: server.baseUrl, ...partner, retryBaseDelayMs: 5, ...extra });
const header = (r: Received, name: string) => r.headers[name] as string | undefined;
async function thrown(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('IntentClient: the operations of docs/openapi.json', () => {
  it('has one method per operationId, and nothing extra in `operations`', () => {
    const ids = Object.values(openapi.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => (op.operationId ? [op.operationId] : [])),
    );
    expect(ids).toHaveLength(12);
    expect(Object.keys(operations).sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const method = operations[id as keyof typeof operations];
      expect(typeof IntentClient.prototype[method]).toBe('function');
    }
  });

  it('returns the 200 body as the typed answer, signed and verified by libs/auth', async () => {
    server.script({ status: 200, body: { apiVersion: '1', ok: true, partnerId: partner.partnerId } });
    const ping = await client().ping();
    expect(ping).toEqual({ apiVersion: '1', ok: true, partnerId: partner.partnerId });
    expect(server.received[0].auth.ok).toBe(true);
  });
});

describe('IntentClient: non-2xx answers throw typed errors', () => {
  it('a 404 throws NotFoundError with code, requestId and the raw body', async () => {
    const body = { code: 'attempt_not_found', message: 'No such attempt.', requestId: 'req-1', extra: true };
    server.script({ status: 404, body });
    const error = await thrown(client().status('att_1'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'attempt_not_found', requestId: 'req-1', raw: body });
  });

  it('a wrong secret is refused by the verifier and throws AuthenticationError', async () => {
    const error = await thrown(client({ secret: 'not-the-secret-0123' }).ping());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as IntentApiError).code).toBe('external_auth_signature_invalid');
  });

  it('a 400 throws ValidationError with its field errors', async () => {
    const details = [{ code: 'invalid_amount', field: 'sources[0].amount', message: 'bad' }];
    server.script({ status: 400, body: { code: 'invalid_amount', message: 'bad', details } });
    const error = (await thrown(
      client().quote({
        walletAddress: WALLET,
        sources: [],
        target: { chainId: 1, address: WALLET, targetToken: { address: WALLET, decimals: 6 } },
      }),
    )) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.fieldErrors).toEqual({ 'sources[0].amount': details });
  });

  it('the stream refused with 404 throws NotFoundError from the iterator', async () => {
    server.script({ status: 404, body: { code: 'attempt_not_found', message: 'no' } });
    const error = await thrown(
      (async () => {
        for await (const e of client().attemptEvents('att_missing')) void e;
      })(),
    );
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it('no answer at all throws PartnerClientError naming the operation', async () => {
    server.script('drop', 'drop');
    const error = await thrown(
      client({ maxRetries: 1 }).quote({ walletAddress: WALLET, sources: [] } as never, {
        operationId: 'op-q',
      }),
    );
    expect(error).toBeInstanceOf(PartnerClientError);
    expect((error as PartnerClientError).details).toMatchObject({ operationId: 'op-q', tries: 2 });
  });
});

describe('IntentClient: retries follow sdks/vectors/idempotency.json', () => {
  const inProgress = idempotency.scenarios.find((s) => s.name === 'same-body-in-progress')!.expected;
  const reused = idempotency.scenarios.find((s) => s.name === 'other-body-after-completion')!.expected;

  it(`${inProgress.code}: waits Retry-After, then resends the same key and bytes with a fresh timestamp and nonce`, async () => {
    const sleeps: number[] = [];
    // Near the real clock: the test server verifies timestamps against it (5 minutes either way).
    let clock = Date.now();
    server.script({
      status: inProgress.status!,
      headers: { 'retry-after': String(inProgress.retryAfterSeconds) },
      body: { code: inProgress.code },
    });
    const c = client({
      now: () => (clock += 1_000),
      sleep: (ms: number) => (sleeps.push(ms), Promise.resolve()),
    });
    await c.searchAttempts({ walletAddress: WALLET, limit: 1 });
    expect(sleeps).toEqual([inProgress.retryAfterSeconds! * 1000]);
    const [first, second] = server.received;
    expect(server.received).toHaveLength(2);
    expect(header(second, 'idempotency-key')).toBe(header(first, 'idempotency-key'));
    expect(second.body.equals(first.body)).toBe(true);
    expect(header(second, 'x-timestamp')).not.toBe(header(first, 'x-timestamp'));
    expect(header(second, 'x-nonce')).not.toBe(header(first, 'x-nonce'));
    expect([first.auth.ok, second.auth.ok]).toEqual([true, true]);
  });

  it(`${reused.code} (${reused.status}) is never retried and throws ConflictError`, async () => {
    server.script({ status: reused.status!, body: { code: reused.code } });
    const error = await thrown(
      client().webhookRecover({ from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }),
    );
    expect(error).toBeInstanceOf(ConflictError);
    expect(server.received).toHaveLength(1);
  });
});

describe('IntentClient: pagination', () => {
  it('attempts(search) follows nextCursor byte for byte with the same filters until it is null', async () => {
    const cursor = cursors.searchAttempts.roundTrips[0].cursor;
    const page = (ids: string[], next: string | null) => ({
      status: 200,
      body: { apiVersion: '1', attempts: ids.map((attemptId) => ({ attemptId })), nextCursor: next },
    });
    server.script(page(['at_1'], cursor), page(['at_2'], `${cursor}x`), page([], null));
    const seen: string[] = [];
    for await (const a of client().attempts({ walletAddress: WALLET, limit: 1 })) seen.push(a.attemptId);
    expect(seen).toEqual(['at_1', 'at_2']);
    const bodies = server.received.map((r) => JSON.parse(r.body.toString()) as Record<string, unknown>);
    expect(bodies).toEqual([
      { walletAddress: WALLET, limit: 1 },
      { walletAddress: WALLET, limit: 1, cursor },
      { walletAddress: WALLET, limit: 1, cursor: `${cursor}x` },
    ]);
  });

  it('webhookEventsAll() reads /webhooks/events, then /after/{nextCursor} while hasMore', async () => {
    const cursor = cursors.webhookEvents.roundTrips[0].cursor;
    const page = (ids: string[], hasMore: boolean, next: string) => ({
      status: 200,
      body: { apiVersion: '1', events: ids.map((eventId) => ({ eventId })), nextCursor: next, hasMore },
    });
    server.script(page(['ev_1', 'ev_2'], true, cursor), page(['ev_3'], false, 'end-cursor'));
    const seen: string[] = [];
    for await (const e of client().webhookEventsAll()) seen.push(e.eventId);
    expect(seen).toEqual(['ev_1', 'ev_2', 'ev_3']);
    expect(server.received.map((r) => r.url)).toEqual([
      '/api/external/webhooks/events',
      `/api/external/webhooks/events/after/${cursor}`,
    ]);
  });
});
