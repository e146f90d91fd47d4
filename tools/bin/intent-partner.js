#!/usr/bin/env node
// `npx intent-partner …`: the partner CLI (npm run partner), started by Node directly: no npm start-up, no banner.
// It runs on the project's Node (tools/project-node.js). tools/register-ts.js compiles the TypeScript once and keeps
// it in node_modules/.cache/run-ts/.
if (!require('../project-node').runOnProjectNode()) {
  require('../register-ts').registerTypeScript();
  require('../partner-cli/main.ts');
}
