import { Box, LinearProgress, Typography } from '@mui/material';
import { BulkDeleteButton, DataTable, List, Pagination, SearchInput, useTranslate } from 'react-admin';
import { HANDBOOK_PAGE_SIZE } from '../../shared/constants';
import { searchableColumns } from '../../shared/handbooks/fields';
import { handbookPermissionPath } from '../../../schemas/index';
import type { Field, HandbookSchema } from '../../shared/handbooks/types';
import type { Row } from '../../shared/handbooks/validation';
import { useRights } from '../../web/components/useRights';
import { handbookResource } from '../../web/providers/resources/handbooks';
import { fieldCell, fieldFilters } from './fieldKinds';
import { HandbookListActions } from './HandbookListActions';
import { HandbookPicker } from './HandbookPicker';
import { handbookRecordPath } from './handbookPaths';
import { columnFields, useHandbookColumns } from './useHandbookColumns';
import { errorShownByClient } from '../../web/providers/httpClient';

export const HANDBOOK_PAGE_SIZES = [50, HANDBOOK_PAGE_SIZE, 200, 500];

/** Shapes and widgets have no order of their own. */
const UNSORTABLE = new Set(['point', 'polygon', 'line', 'widget']);

function handbookFilters(schema: HandbookSchema, searchLabel: string) {
  const search = searchableColumns(schema).length
    ? [<SearchInput key="q" source="q" alwaysOn placeholder={searchLabel} sx={{ minWidth: 280 }} />]
    : [];
  return [...search, ...schema.fields.flatMap((field) => fieldFilters(field, schema))];
}

const column = (field: Field) => (
  <DataTable.Col
    key={field.name}
    source={field.name}
    label={field.label}
    disableSort={UNSORTABLE.has(field.kind)}
    render={(row: Row) => fieldCell(field, row)}
  />
);

/**
 * /handbooks/table/:handbookType: the generated list of one handbook (spec section 2): filters by field
 * kind, sorting (links by their text), 100 rows a page with a page-size control, the user's columns.
 */
export function HandbookList({ schema }: { schema: HandbookSchema }) {
  const translate = useTranslate();
  const rights = useRights(handbookPermissionPath(schema.type));
  const { visible, toggle } = useHandbookColumns(schema);
  const shown = columnFields(schema).filter((field) => visible?.includes(field.name));
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, pt: 2, flexWrap: 'wrap' }}>
        <HandbookPicker schema={schema} />
        {schema.note && (
          <Typography variant="body2" color="text.secondary">
            {schema.note}
          </Typography>
        )}
      </Box>
      <List
        key={schema.type}
        resource={handbookResource(schema.type)}
        title={schema.title}
        perPage={HANDBOOK_PAGE_SIZE}
        sort={schema.defaultSort}
        filters={handbookFilters(schema, translate('handbookEditor.search'))}
        actions={<HandbookListActions schema={schema} rights={rights} visible={visible ?? []} onToggleColumn={toggle} />}
        pagination={<Pagination rowsPerPageOptions={HANDBOOK_PAGE_SIZES} />}
        storeKey={`console.handbooks.${schema.type}`}
        empty={false}
        queryOptions={{ onError: errorShownByClient }}
      >
        {visible ? (
          <DataTable
            rowClick={rights.update ? (id) => handbookRecordPath(schema.type, id) : false}
            bulkActionButtons={
              rights.delete ? <BulkDeleteButton mutationMode="pessimistic" mutationOptions={{ onError: errorShownByClient }} /> : false
            }
            data-testid="handbook-table"
          >
            {shown.map(column)}
          </DataTable>
        ) : (
          <LinearProgress />
        )}
      </List>
    </Box>
  );
}
