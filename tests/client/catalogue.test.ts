import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/shared/errors';
import { COMMAND_STATUS_CODES } from '../../src/shared/equipment/commandStatus';
import { MEDIA_STATUS_LABELS } from '../../src/shared/mediaStatus';
import { MODULES } from '../../src/shared/modules';
import { CONSOLE_ROUTES, MENU_GROUPS } from '../../src/shared/routes';
import { MODULE_FILTERS } from '../../src/client/about/moduleFilters';
import { loadCatalogue } from '../../src/web/i18n/messages';
import { translate } from '../../src/web/i18n/translate';

const keys = [
  ...CONSOLE_ROUTES.map((route) => route.label),
  ...MENU_GROUPS.map((group) => `menu.groups.${group}`),
  ...MODULES.map((id) => `modules.${id}`),
  ...MODULE_FILTERS.map((id) => `moduleFilters.${id}`),
  ...Object.keys(ERROR_CATALOGUE).map((code) => `errors.${code}`),
  'menu.about',
  'transport.accessDenied',
];

describe("the login pages' part of the catalogue", () => {
  it('has what the pages without a session show before the whole catalogue loads', () => {
    expect(
      [
        'app.name',
        'app.loading',
        'login.submit',
        'login.required',
        'menu.about',
        'mobile.subtitle',
        'service.notFound.title',
        'errors.login_not_found',
      ].map((key) => translate('ru', key)),
    ).toEqual([
      'Транспортная платформа',
      'Загрузка',
      'Войти',
      'Это обязательное поле',
      'О системе',
      'Мобильное приложение',
      'Не найдено',
      'Логин не найден',
    ]);
    expect(translate('ru', 'menu.map')).toBe('menu.map');
  });
});

describe('catalogue', () => {
  beforeAll(() => Promise.all([loadCatalogue('ru'), loadCatalogue('en')]));

  it.each(['ru', 'en'] as const)('has every menu, module and error key in %s', (locale) => {
    expect(keys.filter((key) => translate(locale, key) === key)).toEqual([]);
  });

  it.each([
    ['ru', 'Филиалы'],
    ['en', 'Branches'],
  ] as const)('gives one menu name to one screen and calls a branch a branch in %s', (locale, branches) => {
    const names = CONSOLE_ROUTES.filter((route) => !route.hidden).map((route) => translate(locale, route.label));
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    expect(translate(locale, 'reports.filters.depots')).toBe(branches);
  });

  it('fills %{placeholders}', () => {
    expect(translate('ru', 'about.manualVersion', { version: '1.26' })).toBe('версия 1.26');
  });

  it('uses the Russian names of spec section 2', () => {
    expect(['all', 'ump', 'video', 'passengers', 'bc', 'monitoring'].map((id) => translate('ru', `moduleFilters.${id}`))).toEqual([
      'Все',
      'УМП',
      'Видео',
      'Пассажиропоток',
      'Контроль оплаты',
      'Мониторинг',
    ]);
    expect(translate('ru', 'errors.login_not_found')).toBe('Логин не найден');
  });
});

describe('media and command statuses', () => {
  it('name each code the same for terminal commands and video requests, in both languages', async () => {
    for (const language of ['ru', 'en'] as const) {
      await loadCatalogue(language);
      for (const code of COMMAND_STATUS_CODES) {
        const command = translate(language, `equipment.commandStatuses.${code}`);
        expect(command).toBe(translate(language, `video.statuses.${code}`));
        expect(command).toBe(MEDIA_STATUS_LABELS[code][language]);
      }
    }
  });
});
