/**
 * Account rules of spec section 5: username at least 3 characters; password at least 6 characters with
 * letters and digits (at least one of each; other characters are allowed, never refused).
 */
export const USERNAME_MIN = 3;
export const PASSWORD_MIN = 6;

export function isValidPassword(password: string): boolean {
  return password.length >= PASSWORD_MIN && /\p{L}/u.test(password) && /\d/.test(password);
}
