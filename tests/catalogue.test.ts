import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, translateMessage } from '../src/shared/errors';
import { loadCatalogue } from '../src/web/i18n/messages';
import { translate } from '../src/web/i18n/translate';
import { hhMmToMinutes, minutesOfDay, minutesToHhMm, normalizeHhMm } from '../src/shared/time';
import { isValidPassword, usernameProblem } from '../src/shared/validation';
import { truncate } from '../src/shared/format';

describe('error catalogue', () => {
  it('translates the spec codes', () => {
    expect(translateMessage('login_not_found')).toBe('Логин не найден');
    expect(translateMessage('password_incorrect')).toBe('Неверный пароль');
    expect(translateMessage('user_blocked')).toBe('Пользователь заблокирован');
    expect(translateMessage('login_and_password_required')).toBe('Укажите логин и пароль');
    expect(translateMessage('internal_error')).toBe('Ошибка сервера');
    expect(translateMessage('unauthorized')).toBe('Пользователь не авторизован');
    expect(translateMessage('forbidden')).toBe('Доступ запрещен');
    expect(translateMessage('bad_request')).toBe('Неверный запрос');
    expect(translateMessage('not_found')).toBe('Не найдено');
    expect(translateMessage('password_incorrect', 'en')).toBe('Incorrect password');
  });

  it('upper-cases an unknown message', () => {
    expect(translateMessage('something odd')).toBe('SOMETHING ODD');
  });

  it('has both languages for every code', () => {
    for (const [code, text] of Object.entries(ERROR_CATALOGUE)) {
      expect(text.ru, code).toBeTruthy();
      expect(text.en, code).toBeTruthy();
    }
    for (const code of [
      'username_required',
      'password_required',
      'email_required',
      'username_exists',
      'email_exists',
      'systemrole_cant_be_remov',
      'systemrole_cant_be_changed',
      'dvr_or_camera_not_found',
      'user_not_found',
      'email_cant_be_changed',
      'manual_disabled',
      'no_vehicle_found',
      'bad_password',
      'branch_name_used',
      'username must be longer than or equal to 3 characters',
    ]) {
      expect(ERROR_CATALOGUE).toHaveProperty([code]);
    }
  });
});

/** Every .ts/.tsx file under `dir`, with its text. */
function sources(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => ({ file: join(entry.parentPath, entry.name), text: readFileSync(join(entry.parentPath, entry.name), 'utf8') }));
}

/** The first capture of every match of `pattern` in `files`, with where it was found. */
function found(files: { file: string; text: string }[], pattern: RegExp): Map<string, string> {
  const out = new Map<string, string>();
  for (const { file, text } of files) for (const match of text.matchAll(pattern)) out.set(match[1], file);
  return out;
}

describe('no message reaches a person as a code', () => {
  const server = [...sources('src/server'), ...sources('src/shared')];
  const client = [...sources('src/client'), ...sources('src/mobile'), ...sources('src/web')];
  beforeAll(() => Promise.all([loadCatalogue('ru'), loadCatalogue('en')]));

  it('finds every code the server sends in both catalogues', () => {
    const codes = new Map([
      ...found(server, /\bfail\(\s*\d{3},\s*'([^']+)'/g),
      ...found(server, /messages:\s*\[\s*['"]([^'"]+)['"]/g),
      ...found(server, /new ImportRefused\(\s*'([^']+)'/g),
      ...found(server, /\bcode: '([a-z_]+)'/g),
    ]);
    expect(codes.size).toBeGreaterThan(60);
    const missing = [...codes].filter(([code]) =>
      ['ru', 'en'].some((locale) => translate(locale as 'ru' | 'en', `errors.${code}`) === `errors.${code}`),
    );
    expect(missing).toEqual([]);
  });

  it('finds every key the client translates or notifies in both catalogues', () => {
    const calls = [
      ...client.flatMap(({ file, text }) => [...text.matchAll(/\b(?:translate|notify|t)\(([^()]*)/g)].map((m) => ({ file, args: m[1] }))),
    ];
    const keys = new Map<string, string>();
    for (const { file, args } of calls) {
      for (const literal of args.matchAll(/'([a-zA-Z]\w*(?:\.\w+)+)'/g)) if (!literal[1].startsWith('ra.')) keys.set(literal[1], file);
    }
    expect(keys.size).toBeGreaterThan(300);
    const missing = (locale: 'ru' | 'en') => [...keys].filter(([key]) => translate(locale, key) === key);
    expect(missing('ru')).toEqual([]);
    expect(missing('en')).toEqual([]);
  });
});

describe('time rules', () => {
  it.each([
    ['07:05', '07:05'],
    ['7:5', '07:05'],
    ['24:10', '00:10'],
    ['23:60', '23:00'],
    ['99:99', '00:00'],
    ['1_:3_', '10:30'],
    ['__:__', '00:00'],
    ['0930', '09:30'],
  ])('normalises %s to %s', (input, expected) => {
    expect(normalizeHhMm(input)).toBe(expected);
  });

  it('converts between minutes of day and hh:mm', () => {
    expect(hhMmToMinutes('1_:_5')).toBe(10 * 60 + 5);
    expect(minutesToHhMm(605)).toBe('10:05');
    expect(minutesToHhMm(1500)).toBe('25:00');
    expect(minutesToHhMm(null)).toBe('');
  });

  it('reads a time entry by one rule: a colon makes a clock, bare digits are minutes of day', () => {
    expect(minutesOfDay('07:30')).toBe(450);
    expect(minutesOfDay(' 7:3 ')).toBe(423);
    expect(minutesOfDay('25:10')).toBe(10);
    expect(minutesOfDay('__:3_')).toBe(30);
    expect(minutesOfDay('450')).toBe(450);
    expect(minutesOfDay('730')).toBe(730);
    expect(minutesOfDay('0730')).toBe(730);
    expect(minutesOfDay('1500')).toBe(1500);
    expect(minutesOfDay('4_')).toBe(40);
    for (const unreadable of ['', '__', '7.30', '07:30:00', 'abc', '-5']) expect(minutesOfDay(unreadable), unreadable).toBeUndefined();
  });
});

describe('password rule', () => {
  it.each([
    ['admin123', true],
    ['abc12', false],
    ['abcdef', false],
    ['123456', false],
    ['пароль1', true],
  ])('%s → %s', (password, ok) => {
    expect(isValidPassword(password)).toBe(ok);
  });
});

describe('username rule', () => {
  it.each([
    ['ivanov', undefined],
    ['Иванов_2', undefined],
    ['a.b-c@depot', undefined],
    ['', 'username_required'],
    ['ab', 'username must be longer than or equal to 3 characters'],
    ['a b', 'bad_username'],
    ['x<script>', 'bad_username'],
    ['semi;colon', 'bad_username'],
    ['я'.repeat(65), 'bad_username'],
  ])('%j → %s', (username, problem) => {
    expect(usernameProblem(username)).toBe(problem);
  });
});

describe('truncate', () => {
  it('keeps a short text and cuts a long one at whole characters', () => {
    expect(truncate('абв', 3)).toBe('абв');
    expect(truncate('абвг', 3)).toBe('аб…');
    expect(truncate('😀😀😀', 3)).toBe('😀😀😀');
    expect(truncate('😀'.repeat(10), 3)).toBe('😀😀…');
    expect(truncate('x'.repeat(10_000_000), 60)).toHaveLength(60);
  });
});
