import { isValidPassword, usernameProblem } from '../../shared/validation';

/**
 * Client-side checks of the user form (spec section 5), with the same messages as the server's codes
 * (errors.<code> of the catalogue), so a user reads one text whichever side refuses. Each returns an
 * i18n key, or undefined when the value is fine.
 */
export type Check = (value: unknown) => string | undefined;

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

export const checkUsername: Check = (value) => {
  const problem = usernameProblem(text(value));
  return problem && `errors.${problem}`;
};

/** The server's own rule: something, an '@', something, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

export const checkEmail =
  (required: boolean): Check =>
  (value) => {
    const email = text(value);
    if (!email) return required ? 'errors.email_required' : undefined;
    return EMAIL_PATTERN.test(email) ? undefined : 'users.badEmail';
  };

/** On create the password is required; on edit an empty one leaves it unchanged. */
export const checkPassword =
  (required: boolean): Check =>
  (value) => {
    const password = typeof value === 'string' ? value : '';
    if (!password) return required ? 'errors.password_required' : undefined;
    return isValidPassword(password) ? undefined : 'errors.bad_password';
  };
