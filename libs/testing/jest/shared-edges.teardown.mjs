// Jest globalTeardown: stops what shared-edges.setup.mjs started.
export default async function teardown() {
  await globalThis.stopSharedEdges?.();
}
