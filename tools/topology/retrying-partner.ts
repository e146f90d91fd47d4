import { type RawResponse, type SandboxProcess, signedRequest, type TestPartner } from '@svc/testing';

/** 409 in progress, 502 from the balancer, 503 dependency_unavailable: the partner contract says "retry". */
const RETRIED = new Set([409, 502, 503]);

export interface ServedCall {
  response: RawResponse;
  /** The answers that were retried, by status. */
  retried: number[];
  ms: number;
}

/**
 * A partner that does what the API asks of it: on 409/502/503 it signs the same request again (fresh nonce and
 * timestamp, the same Idempotency-Key) after Retry-After (capped at 1 s), until another answer or the deadline.
 */
export async function callUntilServed(o: {
  port: number;
  partner: TestPartner;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  idempotencyKey?: string;
  deadlineMs?: number;
}): Promise<ServedCall> {
  const started = Date.now();
  const deadline = started + (o.deadlineMs ?? 90_000);
  const retried: number[] = [];
  for (;;) {
    const response = await signedRequest({
      port: o.port,
      partner: o.partner,
      method: o.method,
      path: o.path,
      body: o.body,
      ...(o.idempotencyKey ? { idempotencyKey: o.idempotencyKey } : {}),
    });
    if (!RETRIED.has(response.status)) return { response, retried, ms: Date.now() - started };
    retried.push(response.status);
    if (Date.now() > deadline) {
      throw new Error(`${o.method} ${o.path}: still ${response.status} after ${retried.length} tries`);
    }
    const after = Number(response.headers['retry-after']);
    await new Promise((r) => setTimeout(r, Math.min(1000, after > 0 ? after * 1000 : 300)));
  }
}

/** A quote of 1 USDC from chain 1 to 8453 on relay, for a sandbox user (no transaction is sent). */
export function quoteBody(sandbox: SandboxProcess, userIndex: number): object {
  const user = sandbox.manifest.wallets.users[userIndex].address;
  const usdc = (chainId: number) => sandbox.token(chainId, 'USDC');
  return {
    walletAddress: user,
    recipient: user,
    sources: [{ chainId: 1, address: usdc(1), amount: '1000000', symbol: 'USDC', decimals: 6 }],
    target: {
      chainId: 8453,
      address: usdc(8453),
      targetToken: { address: usdc(8453), symbol: 'USDC', decimals: 6 },
    },
    allowedProviders: ['relay'],
  };
}

export interface PartnerOperation {
  key: string;
  intentSessionId: string;
  attemptId: string;
  retried: number[];
}

/**
 * Partner traffic while apps die: one lane after another quotes (Idempotency-Key `<key>-q`) and prepares
 * (`<key>-p`), each call retried per the contract, until `stop()` is called. Every operation must end with one
 * session quoted once and prepared once, whatever died under it.
 */
export function startPartnerTraffic(o: {
  port: number;
  partner: TestPartner;
  sandbox: SandboxProcess;
  userIndex: number;
  lanes: number;
  name: string;
}): { done: PartnerOperation[]; stop(): Promise<void> } {
  const done: PartnerOperation[] = [];
  let stopping = false;
  const lane = async (laneIndex: number) => {
    for (let i = 0; !stopping; i++) {
      const key = `${o.name}-${laneIndex}-${i}`;
      const call = (path: string, body: unknown, idempotencyKey: string) =>
        callUntilServed({ port: o.port, partner: o.partner, method: 'POST', path, body, idempotencyKey });
      const quoted = await call('/api/external/intents/quote', quoteBody(o.sandbox, o.userIndex), `${key}-q`);
      expectOk(quoted, key);
      const intentSessionId = (quoted.response.json as { intentSessionId: string }).intentSessionId;
      const prepared = await call(`/api/external/intents/${intentSessionId}/prepare`, {}, `${key}-p`);
      expectOk(prepared, key);
      const attemptId = (prepared.response.json as { attemptId: string }).attemptId;
      done.push({ key, intentSessionId, attemptId, retried: [...quoted.retried, ...prepared.retried] });
    }
  };
  const lanes = Promise.all(Array.from({ length: o.lanes }, (_, i) => lane(i)));
  lanes.catch(() => undefined); // reported by stop()
  return {
    done,
    stop: async () => {
      stopping = true;
      await lanes;
    },
  };
}

function expectOk(call: ServedCall, key: string): void {
  if (call.response.status !== 200) {
    throw new Error(`operation ${key}: ${call.response.status} ${call.response.text.slice(0, 300)}`);
  }
}
