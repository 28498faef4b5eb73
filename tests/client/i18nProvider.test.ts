import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/shared/errors';
import { i18nProvider } from '../../src/web/providers/i18nProvider';

describe('react-admin translations', () => {
  it('translate a server code react-admin notifies as it is (its error message) into the catalogue text', () => {
    expect(i18nProvider.translate('validation_failed', { _: 'validation_failed' })).toBe(ERROR_CATALOGUE.validation_failed.ru);
    expect(i18nProvider.translate('not_found')).toBe(ERROR_CATALOGUE.not_found.ru);
  });

  it("keep react-admin's and our own keys", () => {
    expect(i18nProvider.translate('ra.action.save')).toBe('Сохранить');
    expect(i18nProvider.translate('handbookEditor.columns')).toBe('Столбцы');
  });
});
