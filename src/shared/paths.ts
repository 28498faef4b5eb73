/**
 * A route path as the route tables and permission keys name it: no query, no hash, no trailing slashes, a
 * leading slash; '' becomes '/'. One definition for the console's and the field app's route checks.
 */
export function cleanPath(path: string): string {
  const clean = path.split(/[?#]/)[0].replace(/\/+$/, '');
  return clean.startsWith('/') ? clean : `/${clean}`;
}
