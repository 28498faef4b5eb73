import { Box } from '@mui/material';
import { SaveButton, SimpleForm, Toolbar } from 'react-admin';
import { handbookPermissionPath } from '../../../schemas/index';
import type { Field, HandbookSchema } from '../../shared/handbooks/types';
import type { Row } from '../../shared/handbooks/validation';
import { DeleteRecordButton } from '../components/DeleteRecordButton';
import { useRights } from '../../web/components/useRights';
import { fieldInput } from './fieldKinds';
import { defaultRecord, formPlace, validateHandbookForm } from './handbookForm';
import { handbookPath } from './handbookPaths';

/** Shapes, widgets and long texts take the form's width; the other inputs a column of it. */
const isWide = (field: Field): boolean =>
  field.kind === 'polygon' || field.kind === 'line' || field.kind === 'widget' || (field.kind === 'text' && field.multiline === true);

function HandbookFormToolbar({ schema, creating }: { schema: HandbookSchema; creating: boolean }) {
  const rights = useRights(handbookPermissionPath(schema.type));
  return (
    <Toolbar sx={{ gap: 1 }}>
      <SaveButton />
      <span style={{ flex: 1 }} />
      {!creating && rights.delete && (
        <DeleteRecordButton
          confirmMessage="handbookEditor.confirmDelete"
          nameOf={(record) => String(record[schema.primaryKey] ?? record.id)}
          redirectTo={handbookPath(schema.type)}
        />
      )}
    </Toolbar>
  );
}

/** The generated create and edit form: one input per field from the field-kind table, validated by the shared rules. */
export function HandbookForm({ schema, creating }: { schema: HandbookSchema; creating: boolean }) {
  return (
    <SimpleForm
      toolbar={<HandbookFormToolbar schema={schema} creating={creating} />}
      validate={(values) => validateHandbookForm(schema, values as Row)}
      defaultValues={creating ? defaultRecord(schema) : undefined}
      sx={{ maxWidth: 960 }}
      data-testid="handbook-form"
    >
      {schema.fields.map((field) => {
        const place = formPlace(schema, field, creating);
        if (place === 'absent') return null;
        const input = fieldInput(field, schema, place === 'locked');
        return (
          input && (
            <Box key={field.name} sx={{ width: '100%', maxWidth: isWide(field) ? 960 : 480 }}>
              {input}
            </Box>
          )
        );
      })}
    </SimpleForm>
  );
}
