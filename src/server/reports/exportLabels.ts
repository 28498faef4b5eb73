import { ru } from '../../web/i18n/ru';

type Tree = { [key: string]: string | Tree };

/**
 * A key of the console's Russian catalogue, for the exported files (Russian, as their headers): an enum
 * column's values and a details column's fields read as the console's table shows them, never as codes.
 * Undefined for a key the catalogue lacks.
 */
export function exportLabel(key: string): string | undefined {
  let node: string | Tree | undefined = ru as unknown as Tree;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}
