import { describe, expect, it } from '@jest/globals';
import { compileTestAllowlist, TEST_ALLOWLIST_ABI } from './test-allowlist.js';

describe('test allowlist contract', () => {
  it('compiles with solc-js to the typed ABI the service and tests use', () => {
    const artifact = compileTestAllowlist();
    expect(artifact.abi).toBe(TEST_ALLOWLIST_ABI);
    expect(artifact.bytecode).toMatch(/^0x[0-9a-f]+$/);
  });
});
