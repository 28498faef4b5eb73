import {
  BooleanInput,
  CheckboxGroupInput,
  NumberInput,
  SelectInput,
  TextInput,
  maxLength,
  maxValue,
  minValue,
  number,
  required,
  useTranslate,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { SettingsField } from './settingsPages';
import { checkSchedule, checkSourceUrl, checkUrlTemplate, formatSchedule, parseSchedule } from './settingsForm';

const label = (source: string) => `settings.fields.${source}`;
const wide = { width: '100%', maxWidth: 560 };

/** A whole number in the server's range (checked by the form, not by the browser, so the message is ours). */
function IntInput({ field, readOnly }: { field: Extract<SettingsField, { kind: 'int' }>; readOnly: boolean }) {
  const translate = useTranslate();
  return (
    <NumberInput
      source={field.source}
      label={label(field.source)}
      step={1}
      validate={[
        required(),
        number(),
        minValue(field.min),
        maxValue(field.max),
        (value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? 'settings.rules.integer' : undefined),
      ]}
      helperText={translate('settings.range', { min: field.min.toLocaleString('ru'), max: field.max.toLocaleString('ru') })}
      readOnly={readOnly}
      sx={wide}
    />
  );
}

/** The EIS address: http(s), required while the import is on (the server's cross-field rule). */
function UrlInput({ field, readOnly }: { field: Extract<SettingsField, { kind: 'url' }>; readOnly: boolean }) {
  const translate = useTranslate();
  const enabled = useWatch({ name: field.enabledBy }) === true;
  return (
    <TextInput
      source={field.source}
      label={label(field.source)}
      validate={(value: unknown) => checkSourceUrl(value, enabled)}
      helperText={translate('settings.urlHint')}
      readOnly={readOnly}
      sx={wide}
    />
  );
}

/** One settings field by its kind. */
export function SettingsInput({ field, readOnly }: { field: SettingsField; readOnly: boolean }) {
  const translate = useTranslate();
  switch (field.kind) {
    case 'int':
      return <IntInput field={field} readOnly={readOnly} />;
    case 'bool':
      return <BooleanInput source={field.source} label={label(field.source)} readOnly={readOnly} />;
    case 'formats':
      return (
        <CheckboxGroupInput
          source={field.source}
          label={label(field.source)}
          choices={field.choices.map((id) => ({ id, name: id.toUpperCase() }))}
          validate={(value: unknown) => (Array.isArray(value) && value.length > 0 ? undefined : 'settings.rules.fewer')}
          readOnly={readOnly}
        />
      );
    case 'url':
      return <UrlInput field={field} readOnly={readOnly} />;
    case 'choice':
      return (
        <SelectInput
          source={field.source}
          label={label(field.source)}
          choices={field.choices.map((id) => ({ id, name: `${field.labels}.${id}` }))}
          validate={required()}
          readOnly={readOnly}
          sx={wide}
        />
      );
    case 'text':
      return (
        <TextInput
          source={field.source}
          label={label(field.source)}
          validate={maxLength(field.maxLength)}
          parse={(value: string | null) => value ?? ''}
          helperText={translate(field.hint)}
          readOnly={readOnly}
          sx={wide}
        />
      );
    case 'template':
      return (
        <TextInput
          source={field.source}
          label={label(field.source)}
          validate={checkUrlTemplate}
          helperText={translate('settings.templateHint')}
          readOnly={readOnly}
          sx={wide}
        />
      );
    case 'schedule':
      return (
        <TextInput
          source={field.source}
          label={label(field.source)}
          format={formatSchedule}
          parse={parseSchedule}
          validate={checkSchedule}
          helperText={translate('settings.scheduleHint')}
          readOnly={readOnly}
          sx={wide}
        />
      );
  }
}
