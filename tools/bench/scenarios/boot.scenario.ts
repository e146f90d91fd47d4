import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '@svc/testing';
import { type ScenarioResult } from '../bench-figure';
import { log } from '../bench-failure';
import { type BenchOptions } from '../bench-options';
import { SERVICE_FEE_RECIPIENT } from '../bench-partner';
import { type ChildServer, startChildServer } from '../child/start-child-server';
import { processRssMb } from '../process-rss';
import { rssFigure } from './rss-figure';

/**
 * Scenario 5, boot: `npm run service`'s entry with the least environment it boots with (an empty DATA_DIR and the
 * fee recipient the committed dev partners need; everything else default), timed from spawn to the first 200 on
 * /readyz, beside the bare baseline started the same way (tools/run-ts.js compiles both on the fly).
 */
export async function bootScenario(options: BenchOptions): Promise<ScenarioResult> {
  const service = { bootMs: [] as number[], rssMb: [] as (number | null)[] };
  const bare = { bootMs: [] as number[], rssMb: [] as (number | null)[] };
  for (let r = 0; r < options.repeats; r += 1) {
    const work = mkdtempSync(join(tmpdir(), 'bench-boot-'));
    try {
      const boots = {
        service: () =>
          startChildServer({
            name: 'service',
            entry: 'apps/standalone/src/main.ts',
            env: { DATA_DIR: join(work, 'data'), SERVICE_FEE_RECIPIENT },
          }),
        bare: () =>
          startChildServer({
            name: 'bare baseline',
            entry: 'tools/bench/baseline/bare-server.ts',
            env: {
              BARE_DB: join(work, 'bare.sqlite'),
              PARTNERS_FILE: join(repoRoot, 'config', 'partners.dev.json'),
            },
          }),
      };
      for (const which of r % 2 === 0 ? (['service', 'bare'] as const) : (['bare', 'service'] as const)) {
        const child: ChildServer = await boots[which]();
        const into = which === 'service' ? service : bare;
        into.bootMs.push(child.bootMs);
        into.rssMb.push(processRssMb(child.pid));
        await child.stop();
      }
      log(
        `  repeat ${r + 1}: service ready in ${Math.round(service.bootMs[r])} ms, bare in ${Math.round(bare.bootMs[r])} ms`,
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const scenario = '5. memory and boot';
  return {
    figures: [
      {
        scenario,
        name: 'boot of `npm run service` to /readyz 200',
        unit: 'ms',
        samples: service.bootMs,
        baseline: { label: 'bare node:http', samples: bare.bootMs },
      },
      rssFigure('service RSS just after boot', service.rssMb, bare.rssMb),
    ],
    notes: ['Boot: DATA_DIR and SERVICE_FEE_RECIPIENT are all the environment `npm run service` needs.'],
  };
}
