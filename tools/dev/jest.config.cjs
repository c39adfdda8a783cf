// The e2e suite here (test/start.e2e.spec.ts, `npm start`) cannot run beside another e2e suite:
// `npm start` builds the apps through Nx, and Nx without its daemon restores cached build outputs
// by rewriting dist/, which breaks an app another suite is starting at that moment. `npm test`
// (tools/test/run.mjs) runs it beside the lint and the type check instead.
module.exports = require('../../jest.preset.cjs')(__dirname);
