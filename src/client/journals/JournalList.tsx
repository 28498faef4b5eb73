import { DataTable, List, Pagination } from 'react-admin';
import { SHARED_PAGE_SIZE } from '../../shared/constants';
import { columnLabel, type JournalSpec } from './journalColumns';
import { JournalActions } from './JournalActions';
import { JournalCell } from './JournalCell';
import { journalFilters } from './JournalFilters';
import { useRights } from '../components/useRights';
import { UserActionDiff } from './UserActionDiff';

type Row = Record<string, unknown> & { id: number };

const hasChanges = (row: Row) => row.before != null || row.after != null || row.request != null;

/** A failed load is reported by the http client, translated; react-admin's raw notice is left out. */
const quiet = () => undefined;

/** A journal: period, user or vehicle and type filters, sortable columns, paging, CSV export. */
export function JournalList({ spec }: { spec: JournalSpec }) {
  const canReadUsers = useRights('/users').read;
  return (
    <List
      resource={spec.resource}
      title={`menu.journals.${spec.id}`}
      perPage={SHARED_PAGE_SIZE}
      sort={{ field: spec.timeField, order: 'DESC' }}
      filters={journalFilters(spec, canReadUsers)}
      actions={<JournalActions spec={spec} />}
      pagination={<Pagination rowsPerPageOptions={[10, SHARED_PAGE_SIZE, 50, 100]} />}
      storeKey={`console.journal.${spec.id}`}
      empty={false}
      disableSyncWithLocation
      queryOptions={{ onError: quiet }}
    >
      <DataTable<Row>
        bulkActionButtons={false}
        rowClick={spec.expandable ? 'expand' : false}
        expand={spec.expandable ? <UserActionDiff /> : undefined}
        isRowExpandable={spec.expandable ? hasChanges : undefined}
        size="small"
        data-testid="journal-table"
      >
        {spec.columns.map((column) => (
          <DataTable.Col<Row> key={column.source} source={column.source} label={columnLabel(column.source)} disableSort={!column.sortable}>
            <JournalCell column={column} />
          </DataTable.Col>
        ))}
      </DataTable>
    </List>
  );
}
