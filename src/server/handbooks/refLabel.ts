import { HANDBOOKS } from '../../../schemas/index';
import { displayFields, fieldByName } from '../../shared/handbooks/fields';
import type { RefField } from '../../shared/handbooks/types';
import { quoteIdent } from './sqlNames';

/**
 * The text a link shows for its target row (list cells, suggestions): the target's display fields joined by
 * a space, dates as DD.MM.YYYY and times as DD.MM.YYYY HH:mm (spec section 9), so a schedule variant reads
 * '10 01.09.2025'. Sorting by that text would put days before years; the 'sort' form writes dates as
 * YYYY-MM-DD instead, so ordering by a link follows the calendar.
 */
export function refLabelExpr(field: RefField, alias: string, purpose: 'show' | 'sort' = 'show'): string {
  const target = HANDBOOKS[field.target];
  const parts = displayFields(field).map((name) => {
    const column = `${alias}.${quoteIdent(name)}`;
    const kind = fieldByName(target, name)?.kind;
    if (kind === 'date') return `to_char(${column}, '${purpose === 'show' ? 'DD.MM.YYYY' : 'YYYY-MM-DD'}')`;
    if (kind === 'datetime') return `to_char(${column}, '${purpose === 'show' ? 'DD.MM.YYYY HH24:MI' : 'YYYY-MM-DD HH24:MI:SS'}')`;
    return `${column}::text`;
  });
  return parts.length === 1 ? parts[0] : `concat_ws(' ', ${parts.join(', ')})`;
}
