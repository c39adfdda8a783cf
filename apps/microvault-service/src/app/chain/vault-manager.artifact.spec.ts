import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { ARTIFACT_PATH, renderArtifact } from '../../../contracts/compile.js';

describe('vault-manager artifact', () => {
  it('is what contracts/VaultManager.sol compiles to (run nx run microvault-service:contracts after editing it)', () => {
    expect(readFileSync(ARTIFACT_PATH, 'utf8')).toBe(renderArtifact());
  });
});
