import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { seedHistory } from './seed-history';

/**
 * `npm run bench:seed-history -- --data-dir DIR --attempts N [--wallets W] [--partner ID]`: writes a history of N
 * settled attempts of one partner (spread over W wallets and recipients; 1: one wallet and one recipient) into
 * DIR's SQLite event store and brings its checkpoints and read models up to date, as a deployment holds them after
 * months of traffic (seedHistory). Then `DATA_DIR=DIR EVENT_STORE=sqlite npm run service` starts on it. Run it while
 * no service runs on DIR.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      attempts: { type: 'string' },
      wallets: { type: 'string', default: '1000' },
      partner: { type: 'string', default: 'partner_demo' },
    },
  });
  const dataDir = values['data-dir'];
  const attempts = Number(values.attempts);
  const wallets = Number(values.wallets);
  if (
    !dataDir ||
    !Number.isSafeInteger(attempts) ||
    attempts < 1 ||
    !Number.isSafeInteger(wallets) ||
    wallets < 1
  )
    throw new Error('usage: --data-dir DIR --attempts N [--wallets W] [--partner ID]');
  const seeded = await seedHistory(dataDir, { attempts, wallets }, values.partner);
  process.stdout.write(
    `${attempts} attempts (${seeded.events} events, ${seeded.fileMb.toFixed(0)} MB) written in ` +
      `${(seeded.seedMs / 1000).toFixed(1)} s; read models projected in ${(seeded.projectMs / 1000).toFixed(1)} s\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.message ?? String(error)}\n`);
  process.exit(1);
});
