/** Jest for the whole repo: TypeScript through @swc/jest (legacy decorators for @colyseus/schema). */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: false, useDefineForClassFields: false },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  // The benchmark machinery's own tests (`*.bench.test.ts`) run with `npm run bench:check` (jest.bench.config.cjs).
  testPathIgnorePatterns: ['/node_modules/', '\\.bench\\.test\\.ts$'],
  transform: { '^.+\\.(t|j)sx?$': swc },
  moduleNameMapper: {
    '^@djambi/shared$': '<rootDir>/shared/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testTimeout: 60000,
  reporters: ['default', '<rootDir>/tests/tools/summaryReporter.cjs'],
};
