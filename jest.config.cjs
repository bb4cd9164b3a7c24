/** Jest runs TypeScript through SWC (ts-jest does not work with TypeScript 7). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(some-esm-only)/)'],
  testTimeout: 120000,
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  maxWorkers: 2,
};
