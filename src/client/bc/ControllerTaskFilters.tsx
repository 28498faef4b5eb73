import { SelectInput } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { TASK_STATUSES, type BcOptions } from '../../shared/bc/tasks';
import { isoDate } from '../../shared/format';
import { DatePickerInput } from '../components/DatePickerInput';

const DAY = 86_400_000;

/** The period a user first sees: a week back and a week ahead. */
export const defaultTaskFilters = () => ({
  from: isoDate(new Date(Date.now() - 7 * DAY)),
  to: isoDate(new Date(Date.now() + 7 * DAY)),
});

const STATUS_CHOICES = TASK_STATUSES.map((status) => ({ id: status, name: `bc.status.${status}` }));

interface FilterProps {
  source: string;
  alwaysOn?: boolean;
  options: BcOptions | undefined;
}

/** A department; choosing another one drops the controller, who belongs to the department left. */
function DepartmentFilter({ source, options }: FilterProps) {
  const { setValue } = useFormContext();
  return (
    <SelectInput
      source={source}
      label="bc.fields.department"
      choices={options?.departments ?? []}
      translateChoice={false}
      emptyText="bc.orders.allDepartments"
      onChange={() => setValue('worker', '')}
      helperText={false}
      sx={{ minWidth: 220 }}
    />
  );
}

/** A controller, of the chosen department only. */
function WorkerFilter({ source, options }: FilterProps) {
  const department = useWatch({ name: 'department' }) as number | '' | undefined;
  const workers = (options?.workers ?? []).filter((worker) => !department || worker.td_id === Number(department));
  return (
    <SelectInput
      source={source}
      label="bc.orders.worker"
      choices={workers}
      optionText="fio"
      translateChoice={false}
      emptyText="bc.orders.anyWorker"
      helperText={false}
      sx={{ minWidth: 220 }}
    />
  );
}

/** The filters of /bc/controllertask (spec: date, department, status, worker), always shown. */
export function controllerTaskFilters(options: BcOptions | undefined) {
  return [
    <DatePickerInput key="from" source="from" label="bc.orders.from" filter alwaysOn />,
    <DatePickerInput key="to" source="to" label="bc.orders.to" filter alwaysOn />,
    <DepartmentFilter key="department" source="department" options={options} alwaysOn />,
    <SelectInput
      key="status"
      source="status"
      label="bc.fields.status"
      choices={STATUS_CHOICES}
      emptyText="bc.orders.allStatuses"
      helperText={false}
      sx={{ minWidth: 160 }}
      alwaysOn
    />,
    <WorkerFilter key="worker" source="worker" options={options} alwaysOn />,
  ];
}
