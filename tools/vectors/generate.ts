import { runGenerator, writeGeneratedFiles } from '@svc/testing';
import { REPO_ROOT } from './vector-documents';
import { vectorFiles } from './vector-files';

/**
 * `npm run vectors`: writes the SDK test vectors of sdks/vectors from libs/contract, libs/auth and the dispatcher.
 * `npm run vectors -- --check`: writes nothing, exits 1 when a file differs from what would be written.
 */
runGenerator(() =>
  writeGeneratedFiles({
    root: REPO_ROOT,
    files: vectorFiles,
    source: 'the service code',
    command: 'npm run vectors',
  }),
);
