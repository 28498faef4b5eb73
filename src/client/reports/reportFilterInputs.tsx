import { useState, type ReactElement } from 'react';
import { Box, MenuItem, TextField } from '@mui/material';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslate } from 'react-admin';
import { presetClock, presetOfPeriod, presetPeriod, type ReportFilterValues } from '../../shared/reports/filters';
import {
  PERIOD_PRESETS,
  type FilterKind,
  type PeriodPreset,
  type PickerFilter,
  type PickerKind,
  type ReportDeclaration,
  type ReportFilter,
} from '../../shared/reports/types';
import { ReportPickerInput } from './ReportPickerInput';

export interface FilterInputProps<F extends ReportFilter> {
  report: ReportDeclaration;
  filter: F;
  values: ReportFilterValues;
  onChange: (patch: ReportFilterValues) => void;
}

type FilterOf<K extends FilterKind> = K extends PickerKind ? PickerFilter : Extract<ReportFilter, { kind: K }>;
type InputTable = { [K in FilterKind]: (props: FilterInputProps<FilterOf<K>>) => ReactElement };

const small = { size: 'small' as const, variant: 'outlined' as const, fullWidth: false, sx: { minWidth: 200 } };

/** A picked day or time as ISO: a date-only period runs from the first day's midnight to the last day's end. */
const iso = (value: Dayjs | null, end: 'from' | 'to', withTime: boolean): string | undefined => {
  if (!value || !value.isValid()) return undefined;
  if (withTime) return value.toISOString();
  return (end === 'from' ? value.startOf('day') : value.endOf('day').millisecond(0)).toISOString();
};

function PeriodInput({ filter, values, onChange }: FilterInputProps<Extract<ReportFilter, { kind: 'period' }>>) {
  const translate = useTranslate();
  const [chosen, setChosen] = useState<PeriodPreset>();
  const Picker = filter.withTime ? DateTimePicker : DatePicker;
  // The theme makes text fields full width: in the filter bar's row each end keeps a width that shows its value.
  const end = (name: 'from' | 'to') => (
    <Box sx={{ width: filter.withTime ? 250 : 190, flexShrink: 0 }}>
      <Picker
        label={translate(`reports.filters.${name}`)}
        value={typeof values[name] === 'string' ? dayjs(values[name]) : null}
        onChange={(value: Dayjs | null) => onChange({ [name]: iso(value, name, Boolean(filter.withTime)) })}
        slotProps={{ textField: { size: 'small' }, field: { clearable: true } }}
      />
    </Box>
  );
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }} data-testid="report-period">
      <TextField
        select
        label={translate(filter.label)}
        value={
          presetOfPeriod(values.from as string | undefined, values.to as string | undefined, presetClock(filter), [
            chosen,
            filter.preset,
          ]) ?? ''
        }
        onChange={(event) => {
          const preset = event.target.value as PeriodPreset;
          setChosen(preset);
          const period = presetPeriod(preset, presetClock(filter));
          onChange({ from: period.from.toISOString(), to: period.to.toISOString() });
        }}
        {...small}
        sx={{ width: 220, flexShrink: 0 }}
        slotProps={{ htmlInput: { 'data-testid': 'report-period-preset' } }}
      >
        {PERIOD_PRESETS.map((preset) => (
          <MenuItem key={preset} value={preset}>
            {translate(`reports.presets.${preset}`)}
          </MenuItem>
        ))}
      </TextField>
      {end('from')}
      {end('to')}
    </Box>
  );
}

function picker(props: FilterInputProps<PickerFilter>) {
  const value = props.values[props.filter.name];
  return (
    <ReportPickerInput
      report={props.report}
      filter={props.filter}
      value={value as number[] | undefined}
      onChange={(ids) => props.onChange({ [props.filter.name]: ids })}
    />
  );
}

function EnumInput({ filter, values, onChange }: FilterInputProps<Extract<ReportFilter, { kind: 'enum' }>>) {
  const translate = useTranslate();
  const value = (values[filter.name] as string[] | undefined) ?? [];
  return (
    <TextField
      select
      label={translate(filter.label)}
      value={value}
      onChange={(event) => {
        const chosen = event.target.value as unknown as string[];
        onChange({ [filter.name]: chosen.length ? chosen : undefined });
      }}
      slotProps={{
        select: {
          multiple: true,
          renderValue: (v) => (v as string[]).map((item) => translate(`${filter.labels}.${item}`, { _: item })).join(', '),
        },
      }}
      {...small}
    >
      {filter.values.map((item) => (
        <MenuItem key={item} value={item}>
          {translate(`${filter.labels}.${item}`, { _: item })}
        </MenuItem>
      ))}
    </TextField>
  );
}

function ChoiceInput({ filter, values, onChange }: FilterInputProps<Extract<ReportFilter, { kind: 'choice' }>>) {
  const translate = useTranslate();
  return (
    <TextField
      select
      label={translate(filter.label)}
      value={(values[filter.name] as string | undefined) ?? filter.default}
      onChange={(event) => onChange({ [filter.name]: event.target.value })}
      {...small}
      sx={{ minWidth: 200 }}
    >
      {filter.values.map((item) => (
        <MenuItem key={item} value={item}>
          {translate(`${filter.labels}.${item}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}

function TextInput({ filter, values, onChange }: FilterInputProps<Extract<ReportFilter, { kind: 'text' }>>) {
  const translate = useTranslate();
  const value = values[filter.name];
  return (
    <TextField
      label={translate(filter.label)}
      value={Array.isArray(value) ? value.join(', ') : (value ?? '')}
      onChange={(event) => onChange({ [filter.name]: event.target.value.slice(0, filter.maxLength) || undefined })}
      {...small}
    />
  );
}

/** The one table from a filter kind to its input (as fieldKinds.tsx is for handbook fields). */
export const FILTER_INPUTS: InputTable = {
  period: PeriodInput,
  vehicles: picker,
  routes: picker,
  depots: picker,
  users: picker,
  incidentTypes: picker,
  departments: picker,
  controllers: picker,
  stops: picker,
  ticketTypes: picker,
  enum: EnumInput,
  choice: ChoiceInput,
  text: TextInput,
};

export function ReportFilterInput(props: FilterInputProps<ReportFilter>) {
  const Input = FILTER_INPUTS[props.filter.kind] as (p: FilterInputProps<ReportFilter>) => ReactElement;
  return <Input {...props} />;
}
