import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHAIN_RUN_FILE, type ChainRun } from '@svc/chains';

// The marker's name and reader live in @svc/chains: the audit reads the same marker.
export { CHAIN_RUN_FILE, type ChainRun, readChainRun } from '@svc/chains';

/** What the service writes into DATA_DIR: its SQLite stores (with their journals), and the marker. */
const SERVICE_DATA = /^((events|requests|read-models)\.sqlite(-wal|-shm|-journal)?|sandbox-chain-run\.json)$/;

/**
 * `npm start` keeps `data/` but starts fresh chains, which replay the same transaction hashes: a later run's
 * transaction then reads as an earlier run's evidence, and the audit of the old events finds chains that are gone
 * (issue 25 item 5). So the data folder is tied to the chain run it belongs to: it names the run's genesis hashes, and
 * data of another run (or of none named) is moved aside into `previous/<time>/` inside it, where nothing reads it: the
service's stores only, whatever else the folder holds stays.
 * Returns the folder it was moved to, or null when the data already belonged to this run (or there was none).
 */
export function tieDataToChainRun(dataDir: string, run: ChainRun, now = new Date()): string | null {
  const marker = join(dataDir, CHAIN_RUN_FILE);
  // Only the service's own stores (and the marker): the folder may hold other things, the sandbox's manifest too.
  const entries = existsSync(dataDir) ? readdirSync(dataDir).filter((e) => SERVICE_DATA.test(e)) : [];
  let moved: string | null = null;
  if (entries.length > 0) {
    const earlier = existsSync(marker) ? (JSON.parse(readFileSync(marker, 'utf8')) as ChainRun) : null;
    if (earlier !== null && JSON.stringify(earlier) === JSON.stringify(run)) return null;
    moved = join(dataDir, 'previous', now.toISOString().replace(/[:.]/g, '-'));
    mkdirSync(moved, { recursive: true });
    for (const entry of entries) renameSync(join(dataDir, entry), join(moved, entry));
  }
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(marker, `${JSON.stringify(run, null, 2)}\n`);
  return moved;
}
