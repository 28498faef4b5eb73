import { CircularProgress, TextField, type AutocompleteRenderInputParams } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Field } from '../../../shared/handbooks/types';

interface HandbookAutocompleteFieldProps {
  params: AutocompleteRenderInputParams;
  field: Field;
  name: string;
  /** The form's message for the field (a Russian text or a translation key). */
  error?: string;
  /** Under the input when there is no error. */
  hint?: string;
  /** A spinner beside the list button while suggestions load. */
  loading?: boolean;
}

/** The text field of a handbook form's autocomplete (links, suggested values): label, required mark, message. */
export function HandbookAutocompleteField({ params, field, name, error, hint, loading }: HandbookAutocompleteFieldProps) {
  const translate = useTranslate();
  const adornment = params.slotProps.input.endAdornment;
  return (
    <TextField
      {...params}
      name={name}
      label={field.label}
      required={field.required}
      error={Boolean(error)}
      helperText={error ? translate(error, { _: error }) : (hint ?? ' ')}
      size="small"
      slotProps={{
        ...params.slotProps,
        input: {
          ...params.slotProps.input,
          endAdornment: (
            <>
              {loading ? <CircularProgress size={16} /> : null}
              {adornment}
            </>
          ),
        },
        htmlInput: { ...params.slotProps.htmlInput, 'data-testid': `input-${field.name}` },
      }}
    />
  );
}
