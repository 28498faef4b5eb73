import { useEffect, useState } from 'react';
import {
  Box,
  Button,
  IconButton,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TableSortLabel,
  Typography,
} from '@mui/material';
import FilterListIcon from '@mui/icons-material/FilterList';
import FilterListOffIcon from '@mui/icons-material/FilterListOff';
import { useNavigate, useParams } from 'react-router';
import { handbookSchema } from '../../../schemas/index';
import type { Field, HandbookSchema } from '../../shared/handbooks/types';
import { useT } from '../../web/i18n/translate';
import NotFoundPage from '../service/NotFoundPage';
import { NeedsConnection } from '../offline/NeedsConnection';
import { HandbookFilterPanel } from './HandbookFilterPanel';
import { HANDBOOK_PAGE_SIZES } from './handbookConstants';
import { keepListState, readListState, type HandbookListState } from './handbookListState';
import { handbookRecordPath, isFilterable, listFields, pageSizeOf, recordId, sortKeyOf, valueText } from './fieldHandbooks';
import { withFieldFilter } from './filterPanelState';
import { SavedCopyNotice } from './SavedCopyNotice';
import { useHandbookPage } from './useHandbookPage';

/** /handbooks/{type} (field-app spec 2.6, 9): the paged read-only list with a filter per column, sorting and the empty message. */
export default function HandbookListScreen() {
  const { type } = useParams();
  const schema = handbookSchema(type);
  return schema ? <HandbookList key={schema.type} schema={schema} /> : <NotFoundPage />;
}

function HandbookList({ schema }: { schema: HandbookSchema }) {
  const t = useT();
  const navigate = useNavigate();
  const [state, setState] = useState<HandbookListState>(() => readListState(schema.type, pageSizeOf(schema)));
  const [filtering, setFiltering] = useState<Field | null>(null);
  const fields = listFields(schema);
  const words = { yes: t('mobile.handbooks.yes'), no: t('mobile.handbooks.no') };
  useEffect(() => keepListState(schema.type, state), [schema.type, state]);

  const { page, loading, problem } = useHandbookPage({
    schema: schema.table.schema,
    table: schema.table.name,
    filters: state.filters,
    sort: state.sort,
    limit: state.perPage,
    offset: state.page * state.perPage,
  });
  const update = (next: Partial<HandbookListState>) => setState((previous) => ({ ...previous, page: 0, ...next }));
  const sortBy = (field: Field) => {
    const key = sortKeyOf(field);
    update({ sort: { field: key, order: state.sort?.field === key && state.sort.order === 'ASC' ? 'DESC' : 'ASC' } });
  };
  const filtered = Object.keys(state.filters).length > 0;

  if (problem === 'offline') return <NeedsConnection />;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, flex: 1 }} data-testid="handbook-list" data-type={schema.type}>
      <SavedCopyNotice savedAt={page?.savedAt} />
      <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1, gap: 1 }}>
        <Typography variant="h6" component="h1" sx={{ flex: 1 }}>
          {schema.title}
        </Typography>
        {filtered && (
          <Button
            size="small"
            startIcon={<FilterListOffIcon />}
            onClick={() => update({ filters: {} })}
            data-testid="handbook-reset-filters"
          >
            {t('mobile.handbooks.reset')}
          </Button>
        )}
      </Box>
      {loading && <LinearProgress />}
      <TableContainer sx={{ flex: 1, overflowX: 'auto' }}>
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              {fields.map((field) => {
                const key = sortKeyOf(field);
                const active = state.filters[field.name] !== undefined;
                return (
                  <TableCell key={field.name} sx={{ whiteSpace: 'nowrap' }}>
                    <TableSortLabel
                      active={state.sort?.field === key}
                      direction={state.sort?.field === key && state.sort.order === 'DESC' ? 'desc' : 'asc'}
                      onClick={() => sortBy(field)}
                      data-testid={`sort-${field.name}`}
                    >
                      {field.label}
                    </TableSortLabel>
                    {isFilterable(field) && (
                      <IconButton
                        size="small"
                        color={active ? 'primary' : 'default'}
                        onClick={() => setFiltering(field)}
                        aria-label={t('mobile.handbooks.filter', { field: field.label })}
                        data-testid={`filter-${field.name}`}
                        data-active={active}
                      >
                        <FilterListIcon fontSize="inherit" />
                      </IconButton>
                    )}
                  </TableCell>
                );
              })}
            </TableRow>
          </TableHead>
          <TableBody>
            {page?.list.map((row) => {
              const id = recordId(schema, row);
              return (
                <TableRow
                  key={String(id)}
                  hover
                  onClick={() => void navigate(handbookRecordPath(schema.type, id))}
                  sx={{ cursor: 'pointer' }}
                  data-testid="handbook-row"
                >
                  {fields.map((field) => (
                    <TableCell key={field.name} sx={{ maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                      {valueText(field, row, words)}
                    </TableCell>
                  ))}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
        {page && page.list.length === 0 && (
          <Typography sx={{ p: 3, textAlign: 'center' }} color="text.secondary" data-testid="handbook-empty">
            {t('mobile.handbooks.empty')}
          </Typography>
        )}
      </TableContainer>
      <TablePagination
        component="div"
        count={page?.count ?? 0}
        page={page && state.page * state.perPage < Math.max(page.count, 1) ? state.page : 0}
        rowsPerPage={state.perPage}
        rowsPerPageOptions={[...HANDBOOK_PAGE_SIZES]}
        onPageChange={(_, next) => setState((previous) => ({ ...previous, page: next }))}
        onRowsPerPageChange={(event) => update({ perPage: Number(event.target.value) })}
        labelRowsPerPage={t('mobile.handbooks.perPage')}
        labelDisplayedRows={({ from, to, count }) => t('mobile.handbooks.rows', { from, to, count })}
        data-testid="handbook-pager"
      />
      {filtering && (
        <HandbookFilterPanel
          schema={schema}
          field={filtering}
          filters={state.filters}
          onApply={(values) => {
            update({ filters: withFieldFilter(state.filters, filtering.name, values) });
            setFiltering(null);
          }}
          onReset={() => {
            update({ filters: {} });
            setFiltering(null);
          }}
          onClose={() => setFiltering(null)}
        />
      )}
    </Box>
  );
}
