// One jest run for the whole workspace: one jest "project" per Nx project (selectable with
// `npx jest --selectProjects <name>`), TypeScript compiled by SWC with decorator metadata kept
// (NestJS dependency injection needs it), path aliases taken from tsconfig.base.json.
const fs = require('node:fs');
const path = require('node:path');
const { pathsToModuleNameMapper } = require('./tools/jest/paths');
const { SWC_OPTIONS } = require('./tools/swc-options');

const root = __dirname;
const moduleNameMapper = pathsToModuleNameMapper(root);

const swc = ['@swc/jest', SWC_OPTIONS];

const projects = [];
for (const kind of ['apps', 'libs', 'tools', 'examples']) {
  const dir = path.join(root, kind);
  if (!fs.existsSync(dir)) continue;
  for (const name of fs.readdirSync(dir).sort()) {
    const projectJson = path.join(dir, name, 'project.json');
    if (!fs.existsSync(projectJson)) continue;
    const displayName = JSON.parse(fs.readFileSync(projectJson, 'utf8')).name;
    projects.push({
      displayName,
      rootDir: path.join(dir, name),
      testEnvironment: 'node',
      testMatch: ['<rootDir>/**/*.spec.ts'],
      transform: { '^.+\\.ts$': swc },
      moduleNameMapper,
      setupFiles: [path.join(root, 'tools/jest/setup.js')],
    });
  }
}

module.exports = {
  projects,
  reporters: ['default', '<rootDir>/tools/jest/summary-reporter.js'],
  testTimeout: 30000,
};
