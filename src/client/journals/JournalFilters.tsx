import type { ReactElement } from 'react';
import { AutocompleteArrayInput, DateTimeInput, ReferenceArrayInput, SelectArrayInput, TextInput } from 'react-admin';
import type { JournalSpec } from './journalColumns';

const IDS = /^[\d\s,;]*$/;
const idList = (label: string) => (value: unknown) => (typeof value === 'string' && !IDS.test(value) ? label : undefined);

/**
 * The filters of a journal, all shown at once: period (from, to), the user (a picker over the users,
 * for those who may read them; ids otherwise) or the vehicle (ids), and the type.
 */
export function journalFilters(spec: JournalSpec, canReadUsers: boolean): ReactElement[] {
  const filters: ReactElement[] = [
    <DateTimeInput key="from" source="from" label="journals.filters.from" alwaysOn />,
    <DateTimeInput key="to" source="to" label="journals.filters.to" alwaysOn />,
  ];
  if (spec.by === 'user' && canReadUsers) {
    filters.push(
      <ReferenceArrayInput key="user" source="user" reference="users" sort={{ field: 'username', order: 'ASC' }} alwaysOn>
        <AutocompleteArrayInput label="journals.filters.user" optionText="username" filterToQuery={(q: string) => ({ q })} sx={{ minWidth: 240 }} />
      </ReferenceArrayInput>,
    );
  } else {
    const label = spec.by === 'user' ? 'journals.filters.user' : 'journals.filters.vehicle';
    filters.push(<TextInput key={spec.by} source={spec.by} label={label} validate={idList('journals.filters.vehicle')} alwaysOn sx={{ minWidth: 220 }} />);
  }
  if (spec.types) {
    const { values, labels, label } = spec.types;
    filters.push(
      <SelectArrayInput key="type" source="type" label={label} choices={values.map((id) => ({ id, name: `journals.${labels}.${id}` }))} alwaysOn sx={{ minWidth: 200 }} />,
    );
  } else if (spec.typeText) {
    filters.push(<TextInput key="type" source="type" label={spec.typeText} alwaysOn sx={{ minWidth: 220 }} />);
  }
  return filters;
}
