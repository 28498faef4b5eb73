import { useEffect, useRef, useState } from 'react';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import type { FieldRef } from '@mui/x-date-pickers/models';
import dayjs, { type Dayjs } from 'dayjs';
import { FieldTitle, InputHelperText, useInput, type ValidationErrorMessage, type Validator } from 'react-admin';
import { isoDate } from '../../shared/format';

/**
 * A react-admin input typed as DD.MM.YYYY (or DD.MM.YYYY HH:mm) in a MUI X picker's field, with its calendar
 * (Russian locale from DateLocalization). The form value stays what the API speaks: 'YYYY-MM-DD' for a date,
 * an ISO time for a date-time, null when empty. A date filled in but impossible (31.02.2031) is kept as
 * INVALID_DATE in a form, so the form's validation names the field, and as no value in a filter; so is a
 * date typed only in part once the field is left (the picker itself reports that as no date at all).
 */
export const INVALID_DATE = 'Invalid Date';

export interface DatePickerInputProps {
  source: string;
  label?: string;
  /** 'date': a day, sent as YYYY-MM-DD; 'datetime': a moment, sent as an ISO time. Default 'date'. */
  kind?: 'date' | 'datetime';
  disabled?: boolean;
  isRequired?: boolean;
  helperText?: string;
  validate?: Validator | Validator[];
  defaultValue?: string | null;
  /** In a list's filter bar: a date typed in part clears the filter rather than sending a bad one. */
  filter?: boolean;
  /** Given by react-admin's filter form (a filter shown without a button); not used here. */
  alwaysOn?: boolean;
}

function dayOf(value: unknown): Dayjs | null {
  if (typeof value !== 'string' || value === '') return null;
  return dayjs(value);
}

function valueOf(day: Dayjs | null, kind: 'date' | 'datetime', filter: boolean): string | null {
  if (day === null) return null;
  if (!day.isValid()) return filter ? null : INVALID_DATE;
  return kind === 'date' ? isoDate(day.toDate()) : day.toDate().toISOString();
}

export function DatePickerInput({
  source,
  label,
  kind = 'date',
  disabled,
  isRequired,
  helperText,
  validate,
  defaultValue,
  filter = false,
}: DatePickerInputProps) {
  const { field, fieldState, isRequired: required } = useInput({ source, validate, defaultValue, isRequired });
  // The picker keeps its own day so that a date typed in part is not reset by the form value it produced.
  const [day, setDay] = useState<Dayjs | null>(() => dayOf(field.value));
  const emitted = useRef<unknown>(field.value);
  useEffect(() => {
    if (field.value === emitted.current) return;
    emitted.current = field.value;
    setDay(dayOf(field.value));
  }, [field.value]);

  const fieldRef = useRef<FieldRef<Dayjs | null>>(null);
  const onBlur = () => {
    const sections = fieldRef.current?.getSections() ?? [];
    const filled = sections.filter((section) => section.value !== '').length;
    if (!filter && filled > 0 && filled < sections.length && field.value !== INVALID_DATE) {
      emitted.current = INVALID_DATE;
      field.onChange(INVALID_DATE);
    }
    field.onBlur();
  };

  const onChange = (next: Dayjs | null) => {
    setDay(next);
    const value = valueOf(next, kind, filter);
    emitted.current = value;
    field.onChange(value);
  };

  // a form-level validation gives a text or a { message, args } object: react-admin's helper text reads both
  const error = fieldState.error?.message as ValidationErrorMessage | undefined;
  const textField = {
    name: field.name,
    onBlur,
    required: required || isRequired,
    error: Boolean(error),
    helperText: <InputHelperText error={error} helperText={filter && !error ? false : helperText} />,
    size: 'small' as const,
  };
  const common = {
    value: day,
    onChange,
    disabled,
    // the text field marks a required label itself
    label: <FieldTitle label={label} source={source} />,
    slotProps: { textField, field: { fieldRef } },
  };
  return kind === 'date' ? <DatePicker {...common} sx={{ width: 200 }} /> : <DateTimePicker {...common} ampm={false} sx={{ width: 240 }} />;
}
