import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..');
export const OPENAPI_JSON = 'docs/openapi.json';
export const API_REFERENCE_HTML = 'docs/api-reference.html';
/** Bodies of one real flow on the sandbox, written by `npm run openapi:capture`. */
export const CAPTURED_PATH = 'tools/openapi/examples/captured.json';
