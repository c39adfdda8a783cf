import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { ARTIFACT_PATH, renderArtifact } from '../../../solidity/compile.js';

describe('vault-manager artifact', () => {
  it('is what solidity/VaultManager.sol compiles to (nx run microvault-service:compile-solidity generates it)', () => {
    expect(readFileSync(ARTIFACT_PATH, 'utf8')).toBe(renderArtifact());
  });
});
