import { describe, expect, it } from 'vitest';
import { cellText } from '../src/shared/reports/cells';
import { VEHICLE_EVENTS_JOURNAL } from '../src/shared/reports/journals';
import { russianValueLabel } from '../src/shared/reports/valueNames';
import { en } from '../src/web/i18n/en';
import { ru } from '../src/web/i18n/ru';

const details = VEHICLE_EVENTS_JOURNAL.columns.find((column) => column.name === 'details')!;

/** A vehicle event's details read the same in the exported file as on screen: fields and coded values named. */
describe("the vehicle events journal's details", () => {
  it('names the channel of a connection in the export, and leaves a value it has no name for as it is', () => {
    expect(cellText(details, { channel: 'simulator', reason: 'timeout' }, 0, russianValueLabel)).toBe('Канал: Симулятор; Причина: timeout');
    expect(cellText(details, { channel: 'egts', remote: '10.0.0.1:5000' }, 0, russianValueLabel)).toBe('Канал: EGTS; Адрес: 10.0.0.1:5000');
    expect(cellText(details, { channel: 'radio' }, 0, russianValueLabel)).toBe('Канал: radio');
  });

  it("has the channels' names in both of the console's catalogues", () => {
    for (const catalogue of [ru, en]) {
      const values = (catalogue as { journals: { detailsValues: Record<string, Record<string, string>> } }).journals.detailsValues;
      expect(Object.keys(values.channel).sort()).toEqual(['egts', 'http', 'simulator']);
    }
  });
});
