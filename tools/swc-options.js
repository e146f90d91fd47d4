// How SWC compiles this repository's TypeScript, for the tests (jest.config.js) and for running it (tools/run-ts.js):
// legacy decorators with their metadata (NestJS dependency injection reads it), ES2022, CommonJS, inline source maps.
const SWC_OPTIONS = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

module.exports = { SWC_OPTIONS };
