import CheckIcon from '@mui/icons-material/Check';
import { Box } from '@mui/material';
import type { ReactElement, ReactNode } from 'react';
import { BooleanInput, NullableBooleanInput, NumberInput, SelectArrayInput, TextInput } from 'react-admin';
import type { Field, FieldKind, HandbookSchema, IntField, TextField as TextFieldSpec } from '../../shared/handbooks/types';
import type { Row } from '../../shared/handbooks/validation';
import { DatePickerInput } from '../components/DatePickerInput';
import { RANGE_FROM, RANGE_TO } from '../../web/providers/resources/handbooks';
import { cellText } from '../../shared/handbooks/cellText';
import { HandbookChoiceInput } from './inputs/HandbookChoiceInput';
import { HandbookColorInput } from './inputs/HandbookColorInput';
import { HandbookGeometryInput } from './inputs/HandbookGeometryInput';
import { HandbookListInput } from './inputs/HandbookListInput';
import { HandbookMinutesInput } from './inputs/HandbookMinutesInput';
import { HandbookPointInput } from './inputs/HandbookPointInput';
import { HandbookRefFilter } from './inputs/HandbookRefFilter';
import { HandbookRefInput } from './inputs/HandbookRefInput';
import { MediaServerFlagInput } from './inputs/MediaServerFlagInput';
import { DvrCamerasInput } from './widgets/DvrCamerasInput';

/**
 * The one table from a field kind to its list cell, form input and list filters (api-platform's
 * InputGuesser idea, typed): the generated handbook screens ask it for every field of a schema.
 * Validation is not here: the form runs the shared rules of src/shared/handbooks/validation.ts.
 */
interface KindView<F extends Field> {
  cell?: (field: F, row: Row) => ReactNode;
  input: (field: F, schema: HandbookSchema, disabled: boolean) => ReactElement | null;
  filters: (field: F, schema: HandbookSchema) => ReactElement[];
}

type KindTable = { [K in FieldKind]: KindView<Extract<Field, { kind: K }>> };

const WIDE = { minWidth: 360 };

const text = (field: Field) => <TextInput key={field.name} source={field.name} label={field.label} />;

const range = (field: Field, make: (source: string, label: string) => ReactElement): ReactElement[] => [
  make(field.name + RANGE_FROM, `${field.label}: от`),
  make(field.name + RANGE_TO, `${field.label}: до`),
];
const textRange = (field: Field) => range(field, (source, label) => <TextInput key={source} source={source} label={label} />);
const dateRange = (field: Field & { kind: 'date' | 'datetime' }) =>
  range(field, (source, label) => <DatePickerInput key={source} source={source} label={label} kind={field.kind} filter />);

const numberInput = (field: Field, disabled: boolean) => (
  <NumberInput source={field.name} label={field.label} disabled={disabled} isRequired={field.required} helperText={field.help} />
);

/** Exits and shifts of a schedule variant: suggestions, any value may still be typed. */
const withChoices = (field: IntField | TextFieldSpec, schema: HandbookSchema, disabled: boolean, plain: () => ReactElement) =>
  field.choicesFrom ? (
    <HandbookChoiceInput schema={schema} field={{ ...field, choicesFrom: field.choicesFrom }} disabled={disabled} />
  ) : (
    plain()
  );

export const FIELD_KINDS: KindTable = {
  text: {
    input: (field, schema, disabled) =>
      withChoices(field, schema, disabled, () => (
        <TextInput
          source={field.name}
          label={field.label}
          disabled={disabled}
          isRequired={field.required}
          multiline={field.multiline}
          type={field.secret ? 'password' : 'text'}
          helperText={field.help}
          sx={field.multiline ? WIDE : undefined}
        />
      )),
    filters: (field) => (field.secret ? [] : [text(field)]),
  },
  int: { input: (field, schema, disabled) => withChoices(field, schema, disabled, () => numberInput(field, disabled)), filters: textRange },
  number: { input: (field, _schema, disabled) => numberInput(field, disabled), filters: textRange },
  port: { input: (field, _schema, disabled) => numberInput(field, disabled), filters: textRange },
  // int8 beyond a JS number: digits as text end to end
  bigint: {
    input: (field, _schema, disabled) => (
      <TextInput source={field.name} label={field.label} disabled={disabled} isRequired={field.required} helperText={field.help} />
    ),
    filters: textRange,
  },
  boolean: {
    cell: (field, row) => (row[field.name] === true ? <CheckIcon fontSize="small" aria-label="да" /> : null),
    input: (field, _schema, disabled) =>
      field.setWhenFilled ? (
        <MediaServerFlagInput field={{ ...field, setWhenFilled: field.setWhenFilled }} />
      ) : (
        <BooleanInput source={field.name} label={field.label} disabled={disabled} defaultValue={field.default} />
      ),
    filters: (field) => [<NullableBooleanInput key={field.name} source={field.name} label={field.label} />],
  },
  date: {
    input: (field, _schema, disabled) => (
      <DatePickerInput source={field.name} label={field.label} disabled={disabled} isRequired={field.required} helperText={field.help} />
    ),
    filters: dateRange,
  },
  datetime: {
    input: (field, _schema, disabled) => (
      <DatePickerInput
        kind="datetime"
        source={field.name}
        label={field.label}
        disabled={disabled || field.setOnSave}
        isRequired={field.required}
        helperText={field.help}
      />
    ),
    filters: dateRange,
  },
  minutes: { input: (field, _schema, disabled) => <HandbookMinutesInput field={field} disabled={disabled} />, filters: textRange },
  list: {
    input: (field, _schema, disabled) => <HandbookListInput field={field} disabled={disabled} />,
    filters: (field) => [
      <SelectArrayInput
        key={field.name}
        source={field.name}
        label={field.label}
        choices={field.options
          .filter((option) => option.value !== null)
          .map((option) => ({ id: option.value as string | number, name: option.label }))}
        translateChoice={false}
        sx={{ minWidth: 200 }}
      />,
    ],
  },
  ref: {
    input: (field, schema, disabled) => <HandbookRefInput schema={schema} field={field} disabled={disabled} />,
    filters: (field, schema) => [
      <HandbookRefFilter key={field.name} source={field.name} label={field.label} schema={schema} field={field} />,
    ],
  },
  ip: {
    input: (field, _schema, disabled) => (
      <TextInput source={field.name} label={field.label} disabled={disabled} isRequired={field.required} placeholder="0.0.0.0" />
    ),
    filters: (field) => [text(field)],
  },
  color: {
    cell: (field, row) => {
      const color = typeof row[field.name] === 'string' ? (row[field.name] as string) : '';
      return color ? (
        <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
          <Box component="span" sx={{ width: 14, height: 14, borderRadius: '3px', border: '1px solid rgba(0,0,0,0.3)', bgcolor: color }} />
          {color}
        </Box>
      ) : null;
    },
    input: (field, _schema, disabled) => <HandbookColorInput field={field} disabled={disabled} />,
    filters: (field) => [text(field)],
  },
  point: { input: (field) => <HandbookPointInput field={field} />, filters: () => [] },
  polygon: { input: (field) => <HandbookGeometryInput field={field} />, filters: () => [] },
  line: { input: (field) => <HandbookGeometryInput field={field} />, filters: () => [] },
  // trip stops have their own editor beside the trip's form (HandbookEdit)
  widget: { input: (field) => (field.widget === 'dvrCameras' ? <DvrCamerasInput field={field} /> : null), filters: () => [] },
};

function viewOf<F extends Field>(field: F): KindView<F> {
  return FIELD_KINDS[field.kind] as unknown as KindView<F>;
}

export function fieldCell(field: Field, row: Row): ReactNode {
  const view = viewOf(field);
  return view.cell ? view.cell(field, row) : cellText(field, row);
}

export function fieldInput(field: Field, schema: HandbookSchema, disabled: boolean): ReactElement | null {
  return viewOf(field).input(field, schema, disabled);
}

export function fieldFilters(field: Field, schema: HandbookSchema): ReactElement[] {
  return viewOf(field).filters(field, schema);
}
