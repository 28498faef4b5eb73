import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/shared/errors';
import { HttpError } from '../../src/web/providers/httpClient';
import { withFieldErrors } from '../../src/web/providers/resources/fieldErrors';
import { USER_FIELD_CODES, userBody, usersListQuery } from '../../src/web/providers/resources/users';
import { checkEmail, checkPassword, checkUsername } from '../../src/client/users/userValidation';

describe("user form checks (the server's codes as messages)", () => {
  it('username: required, at least 3 characters', () => {
    expect(checkUsername('')).toBe('errors.username_required');
    expect(checkUsername('  ')).toBe('errors.username_required');
    expect(checkUsername('ab')).toBe('errors.username must be longer than or equal to 3 characters');
    expect(checkUsername('abc')).toBeUndefined();
  });

  it('password: at least 6 characters of letters and digits; optional on edit', () => {
    expect(checkPassword(true)('')).toBe('errors.password_required');
    expect(checkPassword(false)('')).toBeUndefined();
    for (const bad of ['a1', 'abcdef', '123456', 'abc12']) expect(checkPassword(false)(bad), bad).toBe('errors.bad_password');
    for (const good of ['abc123', 'пароль1', 'a-1_b2c!']) expect(checkPassword(true)(good), good).toBeUndefined();
  });

  it("email: required on create, the server's shape", () => {
    expect(checkEmail(true)('')).toBe('errors.email_required');
    expect(checkEmail(false)('')).toBeUndefined();
    expect(checkEmail(true)('no-at-sign')).toBe('users.badEmail');
    expect(checkEmail(true)('a b@c')).toBe('users.badEmail');
    expect(checkEmail(true)('a@b')).toBeUndefined();
  });

  it('every message a check gives is a code of the catalogue (or our own key)', () => {
    const keys = [checkUsername(''), checkUsername('ab'), checkPassword(true)(''), checkPassword(true)('abc'), checkEmail(true)('')];
    for (const key of keys) expect(Object.keys(ERROR_CATALOGUE)).toContain(key!.slice('errors.'.length));
  });
});

describe('users resource', () => {
  it("maps react-admin's list params to the API's query", () => {
    expect(
      usersListQuery({ filter: { q: ' anna ' }, sort: { field: 'username', order: 'DESC' }, pagination: { page: 3, perPage: 30 } }),
    ).toEqual({ filter: 'anna', sortField: 'username', sortOrder: 'DESC', skipCount: 60, recordCount: 30 });
    expect(usersListQuery({ filter: {}, sort: { field: 'roles', order: 'ASC' }, pagination: { page: 1, perPage: 10 } })).toEqual({
      skipCount: 0,
      recordCount: 10,
    });
  });

  it('sends only writable fields; an empty password is left out', () => {
    expect(userBody({ id: 5, username: ' anna ', email: '', password: '', roles: [1], createdAt: 'x', isBlocked: false })).toEqual({
      username: 'anna',
      email: null,
      roles: [1],
      isBlocked: false,
    });
    expect(userBody({ password: 'abc123' })).toEqual({ password: 'abc123' });
  });

  it('a refusal naming a field becomes a form error under it', () => {
    const refused = new HttpError(400, ['username_exists'], { messages: ['username_exists'] });
    const mapped = withFieldErrors(refused, USER_FIELD_CODES) as HttpError;
    expect(mapped).toBeInstanceOf(HttpError);
    expect(mapped.body).toEqual({ messages: ['username_exists'], errors: { username: 'errors.username_exists' } });
    const other = new HttpError(400, ['bad_request'], null);
    expect(withFieldErrors(other, USER_FIELD_CODES)).toBe(other);
    const forbidden = new HttpError(403, ['forbidden'], null);
    expect(withFieldErrors(forbidden, USER_FIELD_CODES)).toBe(forbidden);
  });
});
