import { useState } from 'react';
import { Typography } from '@mui/material';
import {
  DataTable,
  DataTableBody,
  DataTableRow,
  List,
  Pagination,
  useRecordContext,
  useRefresh,
  type DataTableBodyProps,
  type DataTableRowProps,
} from 'react-admin';
import type { ControllerTask, TaskRouteType } from '../../shared/bc/tasks';
import { formatDate } from '../../shared/format';
import { minutesToHhMm } from '../../shared/time';
import { StatusChip } from '../../web/bc/TaskResultView';
import { useRights } from '../../web/components/useRights';
import { useT } from '../../web/i18n/translate';
import { errorShownByClient } from '../../web/providers/httpClient';
import { TASKS_RESOURCE } from '../../web/providers/resources/bcTasks';
import { ControllerTaskActions } from './ControllerTaskActions';
import { controllerTaskFilters, defaultTaskFilters } from './ControllerTaskFilters';
import { ControllerTaskRowActions } from './ControllerTaskRowActions';
import { TaskFormDialog } from './TaskFormDialog';
import { useBcOptions } from './useBcOptions';

const PAGE = 100;
const Column = DataTable.Col<ControllerTask>;

const routesOf = (task: ControllerTask, type: TaskRouteType) =>
  task.routes
    .filter((route) => route.type === type)
    .map((route) => route.short_name)
    .join(', ');

function TaskRow(props: DataTableRowProps) {
  const task = useRecordContext<ControllerTask>();
  return <DataTableRow {...props} data-testid="task-row" data-id={task?.id} />;
}
const TaskBody = (props: DataTableBodyProps) => <DataTableBody {...props} row={TaskRow} />;

/**
 * /bc/controllertask: the work orders, filtered by period, department, status and controller (the filters are
 * the address), sorted and paged on the server; create, edit, delete, print, open the report.
 */
export function ControllerTaskList() {
  const t = useT();
  const options = useBcOptions();
  const rights = useRights('/bc/controllertask');
  const refresh = useRefresh();
  const [editing, setEditing] = useState<ControllerTask | 'new' | null>(null);
  return (
    <>
      <List
        resource={TASKS_RESOURCE}
        title="menu.bc.controllertask"
        perPage={PAGE}
        sort={{ field: 'date', order: 'DESC' }}
        filters={controllerTaskFilters(options)}
        filterDefaultValues={defaultTaskFilters()}
        actions={<ControllerTaskActions canCreate={rights.create} ready={Boolean(options)} onCreate={() => setEditing('new')} />}
        pagination={<Pagination rowsPerPageOptions={[PAGE]} />}
        // the address only: a period remembered from another day would no longer be «a week around today»
        storeKey={false}
        empty={false}
        queryOptions={{ onError: errorShownByClient }}
      >
        <DataTable
          body={TaskBody}
          bulkActionButtons={false}
          rowClick={false}
          empty={
            <Typography sx={{ p: 2 }} color="text.secondary">
              {t('bc.orders.empty')}
            </Typography>
          }
          data-testid="task-list"
        >
          <Column source="number" label="bc.fields.number" sortByOrder="DESC" />
          <Column source="date" label="bc.fields.date" sortByOrder="DESC" render={(task) => formatDate(task.date)} />
          <Column
            label="bc.fields.hours"
            disableSort
            cellSx={() => ({ whiteSpace: 'nowrap' })}
            render={(task) => `${minutesToHhMm(task.graphicType_start)}–${minutesToHhMm(task.graphicType_end)}`}
          />
          <Column source="department" label="bc.fields.department" sortByOrder="DESC" />
          <Column source="control_region" label="bc.fields.region" disableSort />
          <Column label="bc.fields.workers" disableSort render={(task) => task.workers.map((worker) => worker.fio).join(', ')} />
          <Column label="bc.fields.mainRoutes" disableSort render={(task) => routesOf(task, 0)} />
          <Column label="bc.fields.incidentalRoutes" disableSort render={(task) => routesOf(task, 1)} />
          <Column source="status" label="bc.fields.status" sortByOrder="DESC" render={(task) => <StatusChip status={task.status} />} />
          <Column label="" disableSort cellSx={() => ({ whiteSpace: 'nowrap' })}>
            <ControllerTaskRowActions rights={rights} onEdit={setEditing} />
          </Column>
        </DataTable>
      </List>
      {editing && options && (
        <TaskFormDialog
          options={options}
          task={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            refresh();
          }}
        />
      )}
    </>
  );
}
