import { FileIdempotencyStore } from './file-idempotency-store';

/**
 * One writer process of `file-idempotency-store.int.spec`: puts `count` records of its own into the store at `path`
 * and deletes every third one again, as CLI runs or workers sharing one file do.
 */
async function main(): Promise<void> {
  const [path, writer, count] = process.argv.slice(2);
  const store = new FileIdempotencyStore(path);
  for (let i = 0; i < Number(count); i++) {
    await store.put(`${writer}-${i}`, { key: `key-${writer}-${i}`, body: `{"i":${i}}` });
    if (i % 3 === 2) await store.delete(`${writer}-${i}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
