// One Jest setup for every project: native ESM (Nest 12 ships ESM only), swc for speed with
// decorator metadata (Nest DI and class-validator need it), libs resolved from their sources.
const path = require('node:path');

const root = __dirname;
// The builds' own swc settings (tools/build/transpile.mjs), so tests run the code the apps ship.
const swcOptions = require('./tools/build/swc-options.cjs');

/** @param {string} projectRoot absolute path of the project using the preset */
module.exports = function preset(projectRoot) {
  return {
    rootDir: projectRoot,
    testEnvironment: 'node',
    extensionsToTreatAsEsm: ['.ts'],
    testMatch: ['<rootDir>/**/*.spec.ts'],
    testPathIgnorePatterns: ['/node_modules/', '/dist/'],
    moduleNameMapper: {
      // The SDK is a package of its own (packages/sdk), tested from its sources like the libs.
      '^@service/sdk$': path.join(root, 'packages/sdk/src/index.ts'),
      '^@service/([a-z-]+)$': path.join(root, 'libs/$1/src/index.ts'),
      '^(\\.{1,2}/.*)\\.js$': '$1',
    },
    transform: { '^.+\\.ts$': ['@swc/jest', swcOptions] },
    testTimeout: 30000,
  };
};
