import { describe, expect, it } from 'vitest';
import { REPORTS } from '../src/shared/reports';
import { RUSSIAN_VALUE_PREFIXES, russianValueLabel } from '../src/shared/reports/valueNames';
import { ru } from '../src/web/i18n/ru';

type Tree = { [key: string]: string | Tree };

function subtree(prefix: string): Tree | undefined {
  let node: string | Tree | undefined = ru as unknown as Tree;
  for (const part of prefix.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'object' ? node : undefined;
}

describe("the exported files' value labels", () => {
  it('cover every enum or details column a declared report labels', () => {
    const labelled = REPORTS.flatMap((report) =>
      report.columns.filter((c) => (c.type === 'enum' || c.type === 'json') && c.labels).map((c) => c.labels!),
    );
    expect(labelled.length).toBeGreaterThan(0);
    expect([...new Set(labelled)].filter((prefix) => !RUSSIAN_VALUE_PREFIXES.includes(prefix))).toEqual([]);
  });

  it("read as the console's Russian catalogue reads them", () => {
    for (const prefix of RUSSIAN_VALUE_PREFIXES) {
      const table = subtree(prefix);
      expect(table, prefix).toBeDefined();
      for (const [code, text] of Object.entries(table!)) expect(russianValueLabel(`${prefix}.${code}`), `${prefix}.${code}`).toBe(text);
    }
    expect(russianValueLabel('pdm.states.unknown')).toBeUndefined();
    expect(russianValueLabel('pdm')).toBeUndefined();
  });
});
