import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from '@svc/testing';
import { distributedPorts, pointCallbacksAt, takenPorts } from './distributed-ports';

describe("npm run distributed's ports", () => {
  it('are fixed, from 3100, and none is one of npm start defaults (3000, 9464, 7700, 4000)', () => {
    const ports = distributedPorts({});
    expect(ports).toEqual({
      gateway: 3100,
      gatewayOps: 3101,
      quoting: 3102,
      execution: 3103,
      settlementTracker: 3104,
      webhookDispatcher: 3105,
      sandbox: 3106,
      receiver: 3107,
    });
    expect(Object.values(ports).filter((p) => [3000, 9464, 7700, 4000].includes(p))).toEqual([]);
  });

  it('move together with DISTRIBUTED_BASE_PORT; a bad one is refused with its name', () => {
    expect(distributedPorts({ DISTRIBUTED_BASE_PORT: '4200' }).receiver).toBe(4207);
    for (const bad of ['80', '65530', '31x', '-1'])
      expect(() => distributedPorts({ DISTRIBUTED_BASE_PORT: bad })).toThrow(
        `DISTRIBUTED_BASE_PORT=${bad}: must be an integer from 1024 to 65528`,
      );
  });
});

describe("the dev partners' callbacks in distributed mode", () => {
  it("point at the receiver's port, path kept; remote callbacks and every other field untouched", () => {
    const file = JSON.stringify({
      development: true,
      partners: [
        { partnerId: 'a', secret: 's', callbackUrl: 'http://127.0.0.1:4000/webhooks', maxFeeBps: 300 },
        { partnerId: 'b', secret: 's', callbackUrl: 'http://localhost:4000/legacy-webhooks?x=1' },
        { partnerId: 'c', secret: 's', callbackUrl: 'https://partner.example/hooks' },
        { partnerId: 'd', secret: 's', callbackUrl: null },
      ],
    });
    expect(JSON.parse(pointCallbacksAt(file, 3107))).toEqual({
      development: true,
      partners: [
        { partnerId: 'a', secret: 's', callbackUrl: 'http://127.0.0.1:3107/webhooks', maxFeeBps: 300 },
        { partnerId: 'b', secret: 's', callbackUrl: 'http://localhost:3107/legacy-webhooks?x=1' },
        { partnerId: 'c', secret: 's', callbackUrl: 'https://partner.example/hooks' },
        { partnerId: 'd', secret: 's', callbackUrl: null },
      ],
    });
  });

  it('the committed dev partners all land on the receiver', () => {
    const dev = readFileSync(join(__dirname, '..', '..', 'config', 'partners.dev.json'), 'utf8');
    const moved = JSON.parse(pointCallbacksAt(dev, 3107)) as { partners: { callbackUrl: string }[] };
    expect(moved.partners.map((p) => new URL(p.callbackUrl).port)).toEqual(moved.partners.map(() => '3107'));
  });
});

describe('npm run distributed on ports in use', () => {
  it('stops before starting anything, naming the ports and the variable that moves them', async () => {
    // A free port, held, whose seven neighbours are free too (another suite may hold one of them: then try another).
    let holder = createServer();
    let port = 0;
    for (let tries = 0; ; tries++) {
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      port = (holder.address() as AddressInfo).port;
      const taken = await takenPorts(distributedPorts({ DISTRIBUTED_BASE_PORT: String(port - 1) }));
      if (taken.length === 1 || tries === 10) break;
      await new Promise((resolve) => holder.close(resolve));
      holder = createServer();
    }
    try {
      const base = port - 1; // the held port is the gateway's ops port
      expect(await takenPorts(distributedPorts({ DISTRIBUTED_BASE_PORT: String(base) }))).toEqual([
        { name: 'gatewayOps', port },
      ]);
      const run = spawnSync(process.execPath, ['tools/run-ts.js', 'tools/dev/distributed.ts'], {
        cwd: repoRoot,
        env: { ...process.env, DISTRIBUTED_BASE_PORT: String(base) },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(
        `npm run distributed: port ${port} (gatewayOps) on 127.0.0.1 is in use: is npm run distributed already ` +
          `running? Stop it, or start this one on other ports: DISTRIBUTED_BASE_PORT=${base + 100} npm run ` +
          'distributed (it uses the base and the 7 ports after it)\n',
      );
    } finally {
      holder.close();
    }
  }, 40_000);
});
