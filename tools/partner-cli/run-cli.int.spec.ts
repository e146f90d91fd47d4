import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authenticateRequest, type AuthResult } from '@svc/auth';
import { runCli } from './run-cli';

const partners = [
  { partnerId: 'demo', secret: 'demo-secret-0123456789', authVersion: 2 as const },
  { partnerId: 'legacy', secret: 'legacy-secret-0123456789', authVersion: 1 as const },
];
type Reply = { status: number; body?: unknown } | 'drop';
interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  auth: AuthResult;
}

let server: Server;
let serviceUrl: string;
let root: string;
let seen: Seen[];
let replies: Reply[];

beforeEach(async () => {
  seen = [];
  replies = [];
  root = mkdtempSync(join(tmpdir(), 'partner-cli-'));
  mkdirSync(join(root, 'config'));
  writeFileSync(join(root, 'config', 'partners.dev.json'), JSON.stringify({ partners }));
  writeFileSync(
    join(root, 'quote.json'),
    '{ "walletAddress": "0x1111111111111111111111111111111111111111" }\n',
  );
  writeFileSync(join(root, 'evidence.json'), '{"chainResults":[{"chainId":1,"bundleId":"b-1"}]}');
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const auth = authenticateRequest(
        { method: req.method ?? '', rawUrl: req.url ?? '', rawHeaders: req.rawHeaders, body },
        (id) => partners.find((p) => p.partnerId === id),
        Date.now(),
      );
      seen.push({ url: req.url ?? '', headers: req.headers, body: body.toString(), auth });
      const reply = replies.shift() ?? { status: 200, body: { apiVersion: '1', ok: true } };
      if (reply === 'drop') return req.socket.destroy();
      res.writeHead(auth.ok ? reply.status : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(auth.ok ? reply.body : { code: auth.code }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serviceUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

async function cli(argv: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(
    argv,
    { SERVICE_URL: serviceUrl, ...env },
    {
      repoRoot: root,
      cwd: root,
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      client: { retryBaseDelayMs: 1, maxRetries: 0 },
    },
  );
  return { code, stdout, stderr };
}
const key = (s: Seen) => s.headers['idempotency-key'];

describe('partner CLI against a loopback server that verifies signatures', () => {
  it('pings with the first partner of the repo partners file and prints status line and pretty JSON', async () => {
    const run = await cli(['ping']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('HTTP 200 OK\n{\n  "apiVersion": "1",\n  "ok": true\n}\n');
    expect(seen[0].auth).toMatchObject({ ok: true, partnerId: 'demo', authVersion: 2 });
    expect(run.stderr).toContain('partner demo (auth v2');
    expect(run.stderr + run.stdout).not.toContain('demo-secret');
  });

  it('signs as a v1 partner chosen by PARTNER_ID', async () => {
    expect((await cli(['status', 'att_1'], { PARTNER_ID: 'legacy' })).code).toBe(0);
    expect(seen[0]).toMatchObject({
      url: '/api/external/attempts/att_1/status',
      auth: { ok: true, authVersion: 1 },
    });
  });

  it('tells how to get a fresh quote when the replay of an earlier one comes back expired, and --fresh gets one', async () => {
    const quote = (status: string) => ({
      status: 200,
      body: {
        apiVersion: '1',
        intentSessionId: 'is_1',
        quoteStatus: status,
        expiresAt: '2026-11-25T10:00:00.000Z',
      },
    });
    replies.push(quote('ready'), quote('expired'), quote('ready'), quote('ready'));
    const first = await cli(['quote', '--file', join(root, 'quote.json')]);
    expect(first.stderr).not.toContain('expired');
    const replay = await cli(['quote', '--file', join(root, 'quote.json')]);
    expect(key(seen[1])).toBe(key(seen[0]));
    expect(replay.stderr).toContain('it expired at 2026-11-25T10:00:00.000Z');
    expect(replay.stderr).toContain(`npm run partner -- quote --file ${join(root, 'quote.json')} --fresh`);

    const fresh = await cli(['quote', '--file', join(root, 'quote.json'), '--fresh']);
    expect(fresh.code).toBe(0);
    expect(key(seen[2])).not.toBe(key(seen[0]));
    // The fresh quote is now the one a plain re-run replays.
    await cli(['quote', '--file', join(root, 'quote.json')]);
    expect(key(seen[3])).toBe(key(seen[2]));
  });

  it('names the next command when a deadline passed, and says nothing more for other refusals', async () => {
    const refusal = (code: string) => ({
      status: 409,
      body: { apiVersion: '1', error: 'Conflict', code, message: `${code}: the deadline passed at …` },
    });
    replies.push(
      refusal('intent_session_expired'),
      refusal('evidence_deadline_passed'),
      refusal('idempotency_key_in_use'),
    );
    const prepare = await cli(['prepare', 'is_1']);
    expect(prepare.code).toBe(1);
    expect(prepare.stdout).toContain('intent_session_expired');
    expect(prepare.stderr).toContain('npm run partner -- quote --file <your request.json> --fresh');
    expect(prepare.stderr).toContain('npm run partner -- demo --file <your request.json>');

    const submitted = await cli(['submitted', 'att_1', '--file', join(root, 'evidence.json')]);
    expect(submitted.code).toBe(1);
    expect(submitted.stderr).toContain("the attempt's evidence deadline passed");
    expect(submitted.stderr).toContain('--fresh');

    const other = await cli(['prepare', 'is_2']);
    expect(other.code).toBe(1);
    expect(other.stderr).not.toContain('--fresh');
  });

  it('re-running a quote after no response resends the same key and bytes; another file is a new operation', async () => {
    replies = ['drop'];
    const lost = await cli(['quote', '--file', join(root, 'quote.json')]);
    expect(lost.code).toBe(1);
    expect(lost.stderr).toContain('run the same command again');

    const again = await cli(['quote', '--file', join(root, 'quote.json')]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('reusing Idempotency-Key');
    expect(key(seen[1])).toBe(key(seen[0]));
    expect(seen[1].body).toBe(seen[0].body);
    expect(seen[1].body).toBe('{"walletAddress":"0x1111111111111111111111111111111111111111"}');

    writeFileSync(
      join(root, 'quote2.json'),
      '{"walletAddress":"0x2222222222222222222222222222222222222222"}',
    );
    await cli(['quote', '--file', join(root, 'quote2.json')]);
    expect(key(seen[2])).not.toBe(key(seen[0]));
  });

  it('never sends a key stored for one service or partner to another (issue 25 item 5)', async () => {
    replies = ['drop'];
    expect((await cli(['quote', '--file', join(root, 'quote.json')])).code).toBe(1);
    // The same file, the same partner, another service (SERVICE_URL changed): a new operation, a new key …
    await cli(['quote', '--file', join(root, 'quote.json')], {
      SERVICE_URL: serviceUrl.replace('127.0.0.1', 'localhost'),
    });
    expect(key(seen[1])).not.toBe(key(seen[0]));
    // … and another partner of the same service too.
    await cli(['quote', '--file', join(root, 'quote.json')], { PARTNER_ID: 'legacy' });
    expect(key(seen[2])).not.toBe(key(seen[0]));
    expect(key(seen[2])).not.toBe(key(seen[1]));
    // Back on the first service and partner, with a trailing slash: the stored key of the lost request again.
    const again = await cli(['quote', '--file', join(root, 'quote.json')], { SERVICE_URL: `${serviceUrl}/` });
    expect(again.stderr).toContain('reusing Idempotency-Key');
    expect(key(seen[3])).toBe(key(seen[0]));
  });

  it('never shares a key between two attempts reported with the same evidence file', async () => {
    await cli(['submitted', 'att_1', '--file', join(root, 'evidence.json')]);
    await cli(['submitted', 'att_2', '--file', join(root, 'evidence.json')]);
    expect(seen.map((s) => s.url)).toEqual([
      '/api/external/attempts/att_1/submitted',
      '/api/external/attempts/att_2/submitted',
    ]);
    expect(key(seen[0])).not.toBe(key(seen[1]));
  });

  it('sends --key as the Idempotency-Key, and prepare without a file as {}', async () => {
    expect((await cli(['prepare', 'is_1', '--key', 'my-key-1'])).code).toBe(0);
    expect(seen[0]).toMatchObject({
      url: '/api/external/intents/is_1/prepare',
      body: '{}',
      auth: { ok: true },
    });
    expect(key(seen[0])).toBe('my-key-1');
  });

  it('exits 1 on a non-2xx answer, still printing it', async () => {
    replies = [{ status: 400, body: { code: 'invalid_json' } }];
    const run = await cli(['quote', '--file', join(root, 'quote.json')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^HTTP 400 Bad Request\n/);
  });

  it.each([[['quote']], [['quote', '--file', 'missing.json']], [['status', 'a/b']], [['frobnicate']]])(
    'exits 2 with usage for %j, sending nothing',
    async (argv) => {
      const run = await cli(argv);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('usage: npm run partner');
      expect(seen).toHaveLength(0);
    },
  );

  it('exits 2 on a configuration error', async () => {
    const run = await cli(['ping'], { PARTNER_ID: 'nobody' });
    expect(run).toMatchObject({ code: 2, stderr: expect.stringContaining('PARTNER_ID nobody') });
  });
});

/**
 * `demo` and `sandbox-wallet` sign with anvil's public keys and report anvil hashes: pointed at a real service by
 * mistake, they would create real quotes and attempts there (production chain ids equal the sandbox's). Security
 * review N-L5: they refuse a SERVICE_URL off loopback unless it proves to be a development service.
 */
describe('demo and sandbox-wallet refuse a SERVICE_URL that is not the local service (N-L5)', () => {
  /** The loopback server above, reached as https://api.example: what a production service would see and answer. */
  const asRemote = (fail?: 'network') => ({
    retryBaseDelayMs: 1,
    maxRetries: 0,
    fetch: ((url: string | URL, init?: RequestInit) => {
      if (fail === 'network')
        return Promise.reject(new TypeError('fetch failed (getaddrinfo ENOTFOUND api.example)'));
      return fetch(String(url).replace('https://api.example', serviceUrl), init);
    }) as typeof fetch,
  });
  async function remoteCli(argv: string[], env: Record<string, string>, fail?: 'network') {
    let stdout = '';
    let stderr = '';
    const code = await runCli(
      argv,
      { SERVICE_URL: 'https://api.example', SANDBOX_MANIFEST_DIR: join(root, 'no-sandbox-here'), ...env },
      {
        repoRoot: root,
        cwd: root,
        stdout: (t) => (stdout += t),
        stderr: (t) => (stderr += t),
        client: asRemote(fail),
      },
    );
    return { code, stdout, stderr };
  }
  const devFile = () => {
    writeFileSync(join(root, 'partners.dev.json'), JSON.stringify({ development: true, partners }));
    return join(root, 'partners.dev.json');
  };

  it('SERVICE_URL=https://api.example: demo exits 2 before quoting, with a partner of that service', async () => {
    const run = await remoteCli(['demo', '--file', 'quote.json'], {
      PARTNER_ID: 'demo',
      PARTNER_SECRET: 'demo-secret-0123456789',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/refusing: SERVICE_URL https:\/\/api\.example is not on loopback/);
    expect(run.stdout).toBe('');
    expect(seen.filter((s) => s.url !== '/api/external/ping')).toEqual([]);
    // So does sandbox-wallet, and so does a partners file that is not a development one.
    const wallet = await remoteCli(['sandbox-wallet', 'is_0123'], {});
    expect([wallet.code, wallet.stderr]).toEqual([
      2,
      expect.stringMatching(/refusing: SERVICE_URL https:\/\/api\.example/),
    ]);
    expect(seen.filter((s) => s.url !== '/api/external/ping')).toEqual([]);
  });

  it('refuses a development partner the service does not accept, or a service that does not answer', async () => {
    replies.push({ status: 401, body: { code: 'external_auth_invalid_signature' } });
    const notAccepted = await remoteCli(['demo', '--file', 'quote.json'], { PARTNERS_FILE: devFile() });
    expect(notAccepted.code).toBe(2);
    expect(notAccepted.stderr).toMatch(/refusing: SERVICE_URL https:\/\/api\.example .*ping answered 401/);
    const unreachable = await remoteCli(
      ['demo', '--file', 'quote.json'],
      { PARTNERS_FILE: devFile() },
      'network',
    );
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(/refusing: SERVICE_URL https:\/\/api\.example .*ENOTFOUND/);
    expect(seen.filter((s) => s.url !== '/api/external/ping')).toEqual([]);
  });

  it('goes on when the service authenticates a partner of a development partners file (no production service does)', async () => {
    replies.push({ status: 200, body: { apiVersion: '1', ok: true, partnerId: 'legacy' } });
    const run = await remoteCli(['demo', '--file', 'quote.json'], {
      PARTNERS_FILE: devFile(),
      PARTNER_ID: 'legacy',
    });
    // Past the service check: what stops it now is the missing sandbox manifest.
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('refusing: no provider sandbox manifest at');
    expect(seen.map((s) => [s.url, s.auth.ok])).toEqual([['/api/external/ping', true]]);
  });

  it('asks nothing of a service on loopback', async () => {
    const run = await cli(['demo', '--file', 'quote.json'], {
      SANDBOX_MANIFEST_DIR: join(root, 'no-sandbox-here'),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('refusing: no provider sandbox manifest at');
    expect(seen).toEqual([]);
  });
});
