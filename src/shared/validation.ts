/**
 * Account rules of spec section 5: username at least 3 characters; password at least 6 characters with
 * letters and digits (at least one of each; other characters are allowed, never refused). The spec is
 * silent on a username's characters; ours: at most 64 letters (any alphabet), digits and . _ - @, so a
 * login never carries spaces, quotes or markup into journals, exports and file names.
 */
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 64;
const USERNAME_CHARS = /^[\p{L}\p{N}._@-]+$/u;

/** The catalogue code refusing a (trimmed) username, or undefined when it follows the rule. */
export function usernameProblem(
  username: string,
): 'username_required' | 'username must be longer than or equal to 3 characters' | 'bad_username' | undefined {
  if (!username) return 'username_required';
  if ([...username].length < USERNAME_MIN) return 'username must be longer than or equal to 3 characters';
  if ([...username].length > USERNAME_MAX || !USERNAME_CHARS.test(username)) return 'bad_username';
  return undefined;
}
export const PASSWORD_MIN = 6;

export function isValidPassword(password: string): boolean {
  return password.length >= PASSWORD_MIN && /\p{L}/u.test(password) && /\d/.test(password);
}
