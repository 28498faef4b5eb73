import { describe, expect, it } from 'vitest';
import {
  checkSchedule,
  checkSourceUrl,
  escapeName,
  formatSchedule,
  fromFormValues,
  parseSchedule,
  ruleMessage,
  serverFieldErrors,
  toFormValues,
  unescapeName,
} from '../../src/client/system/settingsForm';
import { SETTINGS_PAGES, subsystemOf } from '../../src/client/system/settingsPages';
import { sectionGroups } from '../../src/client/system/ModuleSwitchesCard';

const parsed = (message: string) =>
  JSON.parse(message.slice('@@react-admin@@'.length)) as { message: string; args: Record<string, string> };

describe('settings view ⇄ form values', () => {
  it('section names with dots are escaped in the form and restored in the body', () => {
    expect(escapeName('video.archiveMonitoring')).toBe('video__archiveMonitoring');
    expect(unescapeName('video__archiveMonitoring')).toBe('video.archiveMonitoring');
    const view = { video: { maxRequestMinutes: 30, archiveDays: 14 }, sections: { 'video.archiveMonitoring': false } };
    const form = toFormValues(view);
    expect(form).toEqual({ video: { maxRequestMinutes: 30, archiveDays: 14 }, sections: { video__archiveMonitoring: false } });
    expect(fromFormValues({ ...form, id: 7, extra: 1 }, view)).toEqual(view);
  });
});

describe('server refusals as field errors', () => {
  it('a dotted field gets its rule, translated where known', () => {
    const errors = serverFieldErrors(['bad_request', 'video.archiveDays must be <= 365']);
    const message = (errors?.video as Record<string, string>).archiveDays;
    expect(parsed(message)).toEqual({ message: 'settings.rules.max', args: { limit: '365' } });
    expect(parsed(ruleMessage('must be >= 1'))).toEqual({ message: 'settings.rules.min', args: { limit: '1' } });
    expect(parsed(ruleMessage('must be integer')).message).toBe('settings.rules.integer');
    expect(parsed(ruleMessage('must be an http or https URL')).message).toBe('settings.rules.url');
    expect(ruleMessage('must be fun')).toBe('must be fun');
  });

  it('a base map the server cannot use is said under its location field', () => {
    const errors = serverFieldErrors(['base_map_dir', 'baseMap.location is not usable']);
    expect(parsed((errors?.baseMap as Record<string, string>).location).message).toBe('settings.rules.baseMap');
  });

  it('a section switch keeps its escaped name; messages naming no field give nothing', () => {
    const errors = serverFieldErrors(['bad_request', 'sections.journals.userActions must be boolean']);
    expect(Object.keys(errors?.sections as object)).toEqual(['journals__userActions']);
    expect(serverFieldErrors(['bad_request'])).toBeUndefined();
    expect(serverFieldErrors(['bad_request', 'body must be object'])).toBeUndefined();
    const two = serverFieldErrors(['eis.sourceUrl is required when eis.enabled', 'requestRadius must be <= 100000']);
    expect(Object.keys(two ?? {})).toEqual(['eis', 'requestRadius']);
  });
});

describe('EIS rules', () => {
  it('schedule: 1 to 48 distinct HH:MM times, edited as one line', () => {
    expect(parseSchedule('03:00, 15:30;23:59')).toEqual(['03:00', '15:30', '23:59']);
    expect(formatSchedule(['03:00', '15:30'])).toBe('03:00, 15:30');
    expect(checkSchedule(['03:00'])).toBeUndefined();
    expect(checkSchedule([])).toBe('settings.rules.fewer');
    expect(checkSchedule(['24:00'])).toBe('settings.rules.pattern');
    expect(checkSchedule(['3:00'])).toBe('settings.rules.pattern');
    expect(checkSchedule(['03:00', '03:00'])).toBe('settings.rules.duplicate');
    expect(
      checkSchedule(Array.from({ length: 49 }, (_, i) => `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`)),
    ).toBe('settings.rules.tooMany');
  });

  it('source: http(s), required while enabled', () => {
    expect(checkSourceUrl('', false)).toBeUndefined();
    expect(checkSourceUrl('', true)).toBe('settings.rules.urlRequired');
    expect(checkSourceUrl('ftp://x.test/a', false)).toBe('settings.rules.url');
    expect(checkSourceUrl('https://user:pw@eis.test/export', true)).toBeUndefined();
  });
});

describe('settings pages', () => {
  it('one page per subsystem, guarded by its own path', () => {
    expect(Object.keys(SETTINGS_PAGES)).toEqual(['navigation', 'video', 'passengers', 'journals', 'bc', 'eis']);
    for (const page of Object.values(SETTINGS_PAGES)) {
      expect(page.path).toBe(`/system/${page.id}`);
      expect(page.api).toBe(`/api/v1/settings/${page.id}`);
      expect(subsystemOf(page.path)).toBe(page.id);
    }
    expect(subsystemOf('/system/other')).toBeUndefined();
  });

  it('sections group by module in menu order', () => {
    const groups = sectionGroups(['handbooks.stops', 'journals.adas', 'handbooks.agency', 'video.archiveMonitoring', 'odd.one']);
    expect(groups).toEqual([
      { group: 'video', names: ['video.archiveMonitoring'] },
      { group: 'journals', names: ['journals.adas'] },
      { group: 'handbooks', names: ['handbooks.agency', 'handbooks.stops'] },
      { group: 'other', names: ['odd.one'] },
    ]);
  });
});
