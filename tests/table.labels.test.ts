import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDBOOKS } from '../schemas/index';
import type { Row } from '../src/shared/handbooks/validation';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { api, insertExample } from './tableFixtures';

/**
 * Dates inside link labels read DD.MM.YYYY (spec section 9), in list cells and suggestions alike, while
 * ordering by a link still follows the calendar.
 */
describe.each(ENGINES)('link labels with dates on %s', (engine) => {
  let t: TestApp;
  let call: ReturnType<typeof api>;
  let december: number;
  let january: number;
  beforeAll(async () => {
    t = await startTestApp(engine);
    call = api(t, await t.login('admin', 'admin123'));
    // as text '15.01.2031' sorts before '20.12.2030'; by the calendar it comes after
    january = (await insertExample(t.db, HANDBOOKS.raspvariants, { srv_id: 987654, startdate: '2031-01-15', enddate: null })).id as number;
    december = (await insertExample(t.db, HANDBOOKS.raspvariants, { srv_id: 987654, startdate: '2030-12-20', enddate: null })).id as number;
    for (const variant of [january, december]) await insertExample(t.db, HANDBOOKS.rasptimes, { RaspVariant_id: variant });
  });
  afterAll(() => t.close());

  it("shows a schedule variant as its service number and DD.MM.YYYY in schedule times' link cells", async () => {
    const list = await call('/api/table/list', { config: { type: 'rasptimes' }, filters: { RaspVariant_id: [january, december] } });
    expect(list.status).toBe(200);
    const labels = new Set((list.body.list as Row[]).map((row) => row.RaspVariant_id__display));
    expect([...labels].sort()).toEqual(['987654 15.01.2031', '987654 20.12.2030']);
  });

  it("orders schedule times by their variant's label in calendar order", async () => {
    for (const [order, expected] of [
      ['ASC', ['20.12.2030', '15.01.2031']],
      ['DESC', ['15.01.2031', '20.12.2030']],
    ] as const) {
      const list = await call('/api/table/list', {
        config: { type: 'rasptimes' },
        filters: { RaspVariant_id: [january, december] },
        sort: { field: 'RaspVariant_id__display', order },
      });
      const shown = (list.body.list as Row[]).map((row) => String(row.RaspVariant_id__display).split(' ')[1]);
      expect([...new Set(shown)]).toEqual(expected);
    }
  });

  it('suggests variants with DD.MM.YYYY labels, found by the typed date, in calendar order', async () => {
    const options = await call('/api/table/options', { config: { type: 'rasptimes' }, field: 'RaspVariant_id', q: '987654' });
    expect(options.status).toBe(200);
    expect(options.body.list).toEqual([
      { value: december, label: '987654 20.12.2030' },
      { value: january, label: '987654 15.01.2031' },
    ]);
    const byDate = await call('/api/table/options', { config: { type: 'rasptimes' }, field: 'RaspVariant_id', q: '15.01.2031' });
    expect(byDate.body.list).toEqual([{ value: january, label: '987654 15.01.2031' }]);
  });
});
