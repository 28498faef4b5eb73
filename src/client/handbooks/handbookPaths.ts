import { HANDBOOKS_PREFIX } from '../../shared/permissions';

/** Console addresses of a handbook: its list, a new record, one record (spec section 2). */
export const handbookPath = (type: string): string => `${HANDBOOKS_PREFIX}/${type}`;
export const handbookCreatePath = (type: string): string => `${handbookPath(type)}/create`;
export const handbookRecordPath = (type: string, id: string | number): string => `${handbookPath(type)}/${encodeURIComponent(String(id))}`;
