import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REGISTRY_FILE, TYPES_FILE, readHandbookFiles, renderRegistry, renderTypes } from '../scripts/build/handbookRegistry.mjs';
import { HANDBOOKS, HANDBOOK_TYPES } from '../schemas/index';
import { HANDBOOK_SECTIONS_ON } from '../src/shared/modules';

describe('the handbook registry', () => {
  it('is what the schema files say (npm run handbooks:registry writes it)', () => {
    const handbooks = readHandbookFiles();
    expect(readFileSync(TYPES_FILE, 'utf8')).toBe(renderTypes(handbooks));
    expect(readFileSync(REGISTRY_FILE, 'utf8')).toBe(renderRegistry(handbooks));
  });

  it("takes each handbook's section default and menu place from its schema file", () => {
    const orders = HANDBOOK_TYPES.map((type) => HANDBOOKS[type].section.menuOrder);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    for (const type of HANDBOOK_TYPES) {
      expect(HANDBOOKS[type].type).toBe(type);
      expect((HANDBOOK_SECTIONS_ON as readonly string[]).includes(type), type).toBe(HANDBOOKS[type].section.onByDefault);
    }
  });
});
