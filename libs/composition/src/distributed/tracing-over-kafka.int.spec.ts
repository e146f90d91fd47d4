import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { GatewayModule } from '@svc/gateway';
import { kafkaBusTopics, MessagePattern } from '@svc/messaging';
import { SpanKind, startTracing, type Tracing } from '@svc/platform';
import { QuotingModule } from '@svc/quoting';
import {
  probeKafkaBroker,
  type RunningKafkaBroker,
  type SandboxProcess,
  signedRequest,
  startKafkaBroker,
  startSandboxProcess,
} from '@svc/testing';
import { type Consumer, Kafka, logLevel } from 'kafkajs';
import { type RunningDistributedApp, startDistributedApp } from './start-distributed-app';

const kafka = probeKafkaBroker();
if (!kafka.available) {
  process.stdout.write(`tracing over kafka: skipped, no Apache Kafka broker here (${kafka.reason})\n`);
}

const partner = {
  partnerId: 'trace-partner',
  secret: 'trace-partner-secret-0123456789',
  authVersion: 2 as const,
};
const QUOTE_PATH = '/api/external/intents/quote';

@Module({ imports: [GatewayModule.register()] })
class GatewayApp {}

@Module({ imports: [QuotingModule] })
class QuotingApp {}

/** What crossed the `quoting.quote` topic: each request's id and its Kafka headers. */
interface WireMessage {
  requestId: string;
  headers: Record<string, string>;
}

/**
 * The gateway and the quoting app of the distributed composition in this process (startDistributedApp, as their
 * mains run them), over a real Apache Kafka broker, quoting from the provider sandbox, with the test's
 * InMemorySpanExporter registered. A consumer of its own reads the request topic to see the headers on the wire.
 */
// Skipped without Java 17 and the broker's jars (`npm run kafka:resolve`, run by .ci/run): the reason is printed.
(kafka.available ? describe : describe.skip)(
  'traces across gateway → Kafka → quoting (a real broker)',
  () => {
    const exporter = new InMemorySpanExporter();
    const wire: WireMessage[] = [];
    let tracing: Tracing;
    let broker: RunningKafkaBroker | undefined;
    let sandbox: SandboxProcess | undefined;
    let tap: Consumer | undefined;
    const apps: RunningDistributedApp[] = [];
    let dir: string;
    let gatewayPort: number;

    beforeAll(async () => {
      tracing = startTracing(
        { serviceName: 'trace-test', sampler: 'always_on', ratio: 1, tracesUrl: null, headers: {} },
        exporter,
      );
      dir = mkdtempSync(join(tmpdir(), 'tracing-kafka-'));
      const [brokerStart, sandboxStart] = await Promise.allSettled([
        startKafkaBroker({ topics: Object.fromEntries(kafkaBusTopics().map((t) => [t, 1])) }),
        startSandboxProcess(),
      ]);
      if (brokerStart.status === 'fulfilled') broker = brokerStart.value;
      if (sandboxStart.status === 'fulfilled') sandbox = sandboxStart.value;
      if (brokerStart.status === 'rejected') throw brokerStart.reason;
      if (sandboxStart.status === 'rejected') throw sandboxStart.reason;
      const partnersFile = join(dir, 'partners.json');
      writeFileSync(
        partnersFile,
        JSON.stringify({
          partners: [
            {
              ...partner,
              callbackUrl: null,
              allowedProviders: ['relay'],
              maxFeeBps: 0,
              rateLimitPerMinute: 10_000,
              enabled: true,
            },
          ],
        }),
      );
      const env: NodeJS.ProcessEnv = {
        ...sandbox!.manifest.env,
        BUS: 'kafka',
        KAFKA_BROKERS: broker!.brokers.join(','),
        KAFKA_GROUP_PREFIX: `trace-${process.pid}-${Date.now()}`,
        KAFKA_MAX_WAIT_MS: '20',
        EVENT_STORE: 'sqlite',
        DATA_DIR: dir,
        PARTNERS_FILE: partnersFile,
        PORT: '0',
        OPS_PORT: '0',
        LOG_LEVEL: 'warn',
      };
      const client = new Kafka({
        brokers: broker!.brokers,
        clientId: 'trace-tap',
        logLevel: logLevel.NOTHING,
      });
      tap = client.consumer({ groupId: `trace-tap-${process.pid}`, maxWaitTimeInMs: 20 });
      await tap.connect();
      await tap.subscribe({ topic: MessagePattern.quote, fromBeginning: true });
      await tap.run({
        eachMessage: async ({ message }) => {
          const value = JSON.parse(message.value?.toString() ?? '{}') as { requestId?: string };
          const headers = Object.fromEntries(
            Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]),
          );
          wire.push({ requestId: value.requestId ?? '', headers });
          await Promise.resolve();
        },
      });
      apps.push(
        await startDistributedApp(
          { name: 'quoting', module: QuotingApp, servesBus: true, sendsOnBus: false },
          env,
        ),
      );
      await waitUntil(async () => (await fetch(`${apps[0].url}/readyz`)).ok, 60_000);
      const gateway = await startDistributedApp(
        { name: 'gateway', module: GatewayApp, servesBus: false, sendsOnBus: true, publicApi: true },
        env,
      );
      apps.push(gateway);
      gatewayPort = Number(new URL(gateway.url).port);
    }, 180_000);

    afterAll(async () => {
      for (const app of apps.reverse()) await app.stop().catch(() => undefined);
      await tap?.disconnect().catch(() => undefined);
      await Promise.all([broker?.stop(), sandbox?.stop()]);
      await tracing?.shutdown();
      if (dir) rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    const quote = async () => {
      const user = sandbox!.manifest.wallets.users[0];
      const usdc = (chainId: number) => sandbox!.token(chainId, 'USDC');
      const res = await signedRequest({
        port: gatewayPort,
        partner,
        method: 'POST',
        path: QUOTE_PATH,
        body: {
          walletAddress: user.address,
          recipient: user.address,
          sources: [{ chainId: 1, address: usdc(1), amount: '5000000', symbol: 'USDC', decimals: 6 }],
          target: {
            chainId: 8453,
            address: usdc(8453),
            targetToken: { address: usdc(8453), symbol: 'USDC', decimals: 6 },
          },
          allowedProviders: ['relay'],
        },
      });
      expect(res.status).toBe(200);
      const requestId = String(res.headers['x-request-id']);
      await waitUntil(() => Promise.resolve(wire.some((m) => m.requestId === requestId)), 10_000);
      return { requestId, onWire: wire.find((m) => m.requestId === requestId)! };
    };

    it('one trace: the gateway span, the send and the handler span, the provider call and the event-store append', async () => {
      const { requestId, onWire } = await quote();
      // The server span ends once the response went out: the exporter has it by then or a moment later.
      await waitUntil(() => Promise.resolve(spansNamed(`POST ${QUOTE_PATH}`).length > 0), 5_000);
      const [gatewaySpan] = spansNamed(`POST ${QUOTE_PATH}`);
      expect(gatewaySpan?.kind).toBe(SpanKind.SERVER);
      expect(gatewaySpan?.attributes).toEqual({
        'http.request.method': 'POST',
        'http.route': QUOTE_PATH,
        'svc.request_id': requestId,
        'http.response.status_code': 200,
      });
      const traceId = gatewaySpan.spanContext().traceId;
      const inTrace = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
      const byId = new Map(inTrace.map((s) => [s.spanContext().spanId, s]));
      const parentOf = (s: ReadableSpan | undefined) => byId.get(s?.parentSpanContext?.spanId ?? '');
      const ancestors = (s: ReadableSpan) => {
        const chain: string[] = [];
        for (let p = parentOf(s); p; p = parentOf(p)) chain.push(p.name);
        return chain;
      };

      const send = inTrace.find((s) => s.name === `send ${MessagePattern.quote}`);
      expect([send?.kind, parentOf(send)?.name]).toEqual([SpanKind.CLIENT, `POST ${QUOTE_PATH}`]);
      // On the wire: the W3C header naming the send span as the parent.
      expect(onWire.headers['traceparent']).toBe(`00-${traceId}-${send!.spanContext().spanId}-01`);

      const handler = inTrace.find((s) => s.name === `process ${MessagePattern.quote}`);
      expect(handler?.kind).toBe(SpanKind.SERVER);
      expect(handler?.attributes['messaging.system']).toBe('kafka');
      expect(parentOf(handler)?.name).toBe(`send ${MessagePattern.quote}`);

      const providerCalls = inTrace.filter((s) => s.attributes['svc.provider'] === 'relay');
      expect(providerCalls.length).toBeGreaterThan(0);
      for (const call of providerCalls) {
        expect(call.kind).toBe(SpanKind.CLIENT);
        expect(ancestors(call)).toContain(`process ${MessagePattern.quote}`);
        expect(call.attributes['server.address']).toBe(
          new URL(sandbox!.manifest.env['RELAY_BASE_URL']).hostname,
        );
      }

      const appends = inTrace.filter((s) => s.name === 'event-store append');
      expect(appends.length).toBeGreaterThan(0);
      for (const append of appends) expect(ancestors(append)).toContain(`process ${MessagePattern.quote}`);
      expect(appends.map((s) => s.attributes['svc.stream.prefix'])).toContain('intent');

      // Nothing secret, no body, no signature in any span of the trace.
      const recorded = JSON.stringify(inTrace.map((s) => [s.name, s.attributes]));
      expect(recorded).not.toContain(partner.secret);
      expect(recorded).not.toContain(sandbox!.manifest.wallets.users[0].address);
      expect(recorded).not.toMatch(/signature/i);
    });

    it('with tracing off: no span is exported and no trace header is added to the message', async () => {
      await tracing.shutdown();
      exporter.reset();
      const { onWire } = await quote();
      expect(exporter.getFinishedSpans()).toEqual([]);
      expect(Object.keys(onWire.headers).filter((k) => /^trace(parent|state)$/.test(k))).toEqual([]);
    });

    function spansNamed(name: string): ReadableSpan[] {
      return exporter.getFinishedSpans().filter((s) => s.name === name);
    }
  },
);

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`not so within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
