import { describe, expect, it } from '@jest/globals';
import { ALL_ORGANIZATIONS, isOrgId } from './index.js';

describe('organization ids', () => {
  it('takes the ids the platform, its tests and tools use', () => {
    for (const id of ['org_demo', 'org_a', 'org-1', 'o', `org_${'7f3c2a9e-0b1d-4c5e-8f6a-1b2c3d4e5f60'}`, 'ORG_42', 'x'.repeat(128)]) {
      expect(isOrgId(id)).toBe(true);
    }
  });

  it('refuses the internal all-organizations id, NATS subject characters and anything else', () => {
    expect(isOrgId(ALL_ORGANIZATIONS)).toBe(false);
    for (const id of ['', '*', 'org.a', 'org>', '>', 'org a', ' org_a', 'org_a\n', 'org/a', 'örg', 'x'.repeat(129), 42, null, undefined]) {
      expect(isOrgId(id)).toBe(false);
    }
  });
});
