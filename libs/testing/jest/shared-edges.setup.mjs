// Jest globalSetup of the e2e targets whose suites run on the shared gateway settings
// (SHARED_GATEWAY_ENV): one NATS server and one gateway per Jest worker, taken in turn by the
// worker's test files instead of one each (libs/testing/src/shared-edge.ts). Needs the built
// libs and gateway, which the e2e targets depend on.
import { startSharedEdges } from '@service/testing';

export default async function setup(globalConfig) {
  globalThis.stopSharedEdges = await startSharedEdges(globalConfig.runInBand ? 1 : globalConfig.maxWorkers);
}
