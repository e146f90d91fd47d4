import { runGenerator, writeGeneratedFiles } from '@svc/testing';
import { generateOpenApiFiles } from './openapi-files';
import { REPO_ROOT } from './paths';

/**
 * `npm run openapi`: writes docs/openapi.json and docs/api-reference.html from libs/contract.
 * `npm run openapi -- --check`: writes nothing, exits 1 when either file differs from what would be written.
 */
runGenerator(() =>
  writeGeneratedFiles({
    root: REPO_ROOT,
    files: generateOpenApiFiles,
    source: 'libs/contract',
    command: 'npm run openapi',
  }),
);
