import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { REPO_ROOT, VECTOR_BUILDERS, VECTORS_DIR, vectorDocument } from './vector-documents';

/** Every file as `npm run vectors` writes it: formatted by the repository's Prettier configuration. */
export async function vectorFiles(): Promise<{ path: string; content: string }[]> {
  return Promise.all(
    Object.keys(VECTOR_BUILDERS).map(async (file) => {
      const path = `${VECTORS_DIR}/${file}`;
      const filepath = join(REPO_ROOT, path);
      const options = (await resolveConfig(filepath)) ?? {};
      return {
        path,
        content: await format(JSON.stringify(await vectorDocument(file)), { ...options, filepath }),
      };
    }),
  );
}
