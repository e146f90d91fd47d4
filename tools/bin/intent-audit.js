#!/usr/bin/env node
// `npx intent-audit …`: the audit (npm run audit), started by Node directly: no npm start-up, no banner.
// It runs on the project's Node (tools/project-node.js). tools/register-ts.js compiles the TypeScript once and keeps
// it in node_modules/.cache/run-ts/.
if (!require('../project-node').runOnProjectNode()) {
  require('../register-ts').registerTypeScript();
  require('../audit/main.ts');
}
