import { type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CountingWebhookReceiver,
  SandboxDriver,
  type SandboxProcess,
  spawnEntry,
  startCountingWebhookReceiver,
  startSandboxProcess,
  stopChild,
  waitForLine,
} from '@svc/testing';

export const AUDIT_PARTNER = {
  partnerId: 'audit-partner',
  secret: 'audit-partner-secret-0123456789abcdef',
  authVersion: 2 as const,
};
/** anvil's dev account 9, the fee recipient `npm start` uses. */
const SERVICE_FEE_RECIPIENT = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';
const SERVICE_FEE_BPS = 10;

export interface SandboxService {
  sandbox: SandboxProcess;
  driver: SandboxDriver;
  /** The environment the service runs with: what the audit reads its store and chains from. */
  env: Record<string, string>;
  dataDir: string;
  serviceUrl: string;
  stop(): Promise<void>;
}

/**
 * The provider sandbox and the standalone service as child processes, configured as `npm start` configures them
 * (SQLite in a DATA_DIR, the sandbox's chains and providers, a service fee), with one partner whose webhooks go to a
 * receiver on loopback. The store the audit reads is the one this service writes.
 */
export async function startSandboxService(): Promise<SandboxService> {
  const work = mkdtempSync(join(tmpdir(), 'audit-e2e-'));
  const children: ChildProcess[] = [];
  let sandbox: SandboxProcess | undefined;
  let receiver: CountingWebhookReceiver | undefined;
  const stop = async () => {
    for (const child of children) await stopChild(child);
    await sandbox?.stop();
    await receiver?.close();
    rmSync(work, { recursive: true, force: true });
  };
  try {
    receiver = await startCountingWebhookReceiver(AUDIT_PARTNER);
    sandbox = await startSandboxProcess();
    const partnersFile = join(work, 'partners.json');
    writeFileSync(
      partnersFile,
      JSON.stringify({
        partners: [
          { ...AUDIT_PARTNER, callbackUrl: receiver.url, rateLimitPerMinute: 100_000, maxFeeBps: 300 },
        ],
      }),
    );
    const dataDir = join(work, 'data');
    mkdirSync(dataDir);
    const env: Record<string, string> = {
      ...sandbox.manifest.env,
      PORT: '0',
      OPS_PORT: '0', // any free port: another service may run beside this one
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      EVENT_STORE: 'sqlite',
      LOG_LEVEL: 'warn',
      SERVICE_FEE_BPS: String(SERVICE_FEE_BPS),
      SERVICE_FEE_RECIPIENT,
      PARTNERS_FILE: partnersFile,
      SETTLEMENT_TICK_MS: '100',
      WEBHOOK_TICK_MS: '200',
      // The shortest evidence window (60 s, the signable window plus execution time): the expired flow ends then.
      EVIDENCE_WINDOW_SECONDS: '60',
    };
    const lines: string[] = [];
    const service = spawnEntry('apps/standalone/src/main.ts', { ...process.env, ...env }, (l) =>
      lines.push(l),
    );
    children.push(service);
    const [, url] = await waitForLine(service, lines, /listening on (http:\/\/\S+)/, 60_000);
    const driver = new SandboxDriver({ port: Number(new URL(url).port), partner: AUDIT_PARTNER, sandbox });
    return { sandbox, driver, env, dataDir, serviceUrl: url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
