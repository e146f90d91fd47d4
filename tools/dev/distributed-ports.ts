import { createServer } from 'node:net';

/** The fixed ports of `npm run distributed`, from one base: none of them is one of npm start's (3000, 9464, 7700, 4000). */
export interface DistributedPorts {
  gateway: number;
  gatewayOps: number;
  quoting: number;
  execution: number;
  settlementTracker: number;
  webhookDispatcher: number;
  sandbox: number;
  receiver: number;
}

export const DEFAULT_DISTRIBUTED_BASE_PORT = 3100;

/** DISTRIBUTED_BASE_PORT (default 3100) and the seven ports after it, in this order. */
export function distributedPorts(env: Record<string, string | undefined>): DistributedPorts {
  const raw = env['DISTRIBUTED_BASE_PORT']?.trim() || String(DEFAULT_DISTRIBUTED_BASE_PORT);
  const base = Number(raw);
  if (!/^\d+$/.test(raw) || base < 1024 || base > 65535 - 7) {
    throw new Error(
      `DISTRIBUTED_BASE_PORT=${raw}: must be an integer from 1024 to 65528 (it and the 7 ports after it are used)`,
    );
  }
  return {
    gateway: base,
    gatewayOps: base + 1,
    quoting: base + 2,
    execution: base + 3,
    settlementTracker: base + 4,
    webhookDispatcher: base + 5,
    sandbox: base + 6,
    receiver: base + 7,
  };
}

/**
 * A partners file (its JSON text) whose plain-HTTP loopback callback URLs are moved to `port`, path kept: the dev
 * partners' webhooks then reach `npm run distributed`'s receiver, not npm start's on 4000. Everything else verbatim.
 */
export function pointCallbacksAt(partnersJson: string, port: number): string {
  const file = JSON.parse(partnersJson) as { partners?: { callbackUrl?: string | null }[] };
  for (const partner of file.partners ?? []) {
    if (typeof partner.callbackUrl !== 'string') continue;
    const url = new URL(partner.callbackUrl);
    if (url.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) continue;
    url.port = String(port);
    partner.callbackUrl = url.toString();
  }
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The ports of `ports` that something on 127.0.0.1 already listens on, named. */
export async function takenPorts(ports: DistributedPorts): Promise<{ name: string; port: number }[]> {
  const taken: { name: string; port: number }[] = [];
  for (const [name, port] of Object.entries(ports) as [keyof DistributedPorts, number][]) {
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (!free) taken.push({ name, port });
  }
  return taken;
}
