import { useEffect } from 'react';
import { BooleanInput } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import type { BooleanField } from '../../../shared/handbooks/types';

const isFilled = (value: unknown): boolean => value !== undefined && value !== null && String(value).trim() !== '';

/**
 * A dependent flag (media-server use of recorders and terminals, spec section 3): on exactly when all the
 * fields it follows are filled. Shown read-only; the server applies the same rule on save.
 */
export function MediaServerFlagInput({ field }: { field: BooleanField & { setWhenFilled: readonly string[] } }) {
  const { setValue } = useFormContext();
  const values = useWatch({ name: [...field.setWhenFilled] }) as unknown[];
  const on = values.every(isFilled);
  useEffect(() => {
    setValue(field.name, on, { shouldDirty: false });
  }, [on, field.name, setValue]);
  return <BooleanInput source={field.name} label={field.label} readOnly helperText="handbookEditor.dependentFlag" />;
}
