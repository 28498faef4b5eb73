import { SelectInput } from 'react-admin';
import type { ListField } from '../../../shared/handbooks/types';

/**
 * A fixed list of values. A null option of the spec ('any day', 'not set') is the select's empty choice
 * with its own label; otherwise the empty choice reads as nothing chosen.
 */
export function HandbookListInput({ field, disabled }: { field: ListField; disabled?: boolean }) {
  const empty = field.options.find((option) => option.value === null);
  const choices = field.options
    .filter((option) => option.value !== null)
    .map((option) => ({ id: option.value as string | number, name: option.label }));
  return (
    <SelectInput
      source={field.name}
      label={field.label}
      choices={choices}
      emptyValue=""
      parse={(value: unknown) => (value === '' ? null : value)}
      format={(value: unknown) => value ?? ''}
      emptyText={empty?.label ?? ''}
      disabled={disabled}
      isRequired={field.required}
      translateChoice={false}
      sx={{ minWidth: 240 }}
      data-testid={`input-${field.name}`}
    />
  );
}
