// Maps the `paths` of tsconfig.base.json to jest's moduleNameMapper, so tests import libs
// exactly as the code does (`@svc/contract`), never by relative path.
const fs = require('node:fs');
const path = require('node:path');

function pathsToModuleNameMapper(root) {
  const tsconfig = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'));
  const mapper = {};
  for (const [alias, [target]] of Object.entries(tsconfig.compilerOptions.paths)) {
    mapper[`^${alias.replace('/', '\\/')}$`] = path.join(root, target);
  }
  return mapper;
}

module.exports = { pathsToModuleNameMapper };
