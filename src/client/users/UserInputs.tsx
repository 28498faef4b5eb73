import { Box, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import {
  AutocompleteArrayInput,
  NumberInput,
  PasswordInput,
  ReferenceArrayInput,
  TextInput,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useRights } from '../../web/components/useRights';
import type { UserRecord } from '../../web/providers/resources/users';
import { checkEmail, checkPassword, checkUsername, type Check } from './userValidation';

/** A check as a react-admin validator; `required` marks the label with an asterisk. */
const validator = (check: Check, required = false) => Object.assign((value: unknown) => check(value), { isRequired: required });

function Section({ title, children }: { title: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box sx={{ width: '100%', maxWidth: 720, mb: 1 }}>
      <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 0.5 }}>
        {translate(title)}
      </Typography>
      {children}
    </Box>
  );
}

const row = { direction: { xs: 'column', sm: 'row' }, spacing: { xs: 0, sm: 2 } } as const;

/**
 * The user form's inputs (create and edit): login, email, password with the spec's rules checked here
 * with the server's messages; name, position; roles (for those who may read roles). Once set, the email cannot change (the server
 * refuses it), so it is read-only on edit.
 */
export function UserInputs({ creating }: { creating: boolean }) {
  const record = useRecordContext<UserRecord>();
  const translate = useTranslate();
  const emailLocked = !creating && Boolean(record?.email);
  // the role picker reads /api/v1/roles (roles read right); without it the user's roles stay as they are
  const canReadRoles = useRights('/roles').read;
  return (
    <>
      <Section title="users.sections.account">
        <Stack {...row}>
          <TextInput
            source="username"
            label="users.fields.username"
            validate={validator(checkUsername, true)}
            autoComplete="off"
            fullWidth
          />
          <TextInput
            source="email"
            label="users.fields.email"
            type="email"
            validate={validator(checkEmail(creating), creating)}
            readOnly={emailLocked}
            helperText={emailLocked ? translate('users.emailLocked') : false}
            autoComplete="off"
            fullWidth
          />
        </Stack>
        <PasswordInput
          source="password"
          label="users.fields.password"
          validate={validator(checkPassword(creating), creating)}
          helperText={translate(creating ? 'users.passwordHint' : 'users.passwordKeep')}
          autoComplete="new-password"
          fullWidth
        />
      </Section>
      <Section title="users.sections.person">
        <Stack {...row}>
          <TextInput source="lastName" label="users.fields.lastName" fullWidth />
          <TextInput source="firstName" label="users.fields.firstName" fullWidth />
        </Stack>
        <TextInput source="title" label="users.fields.title" fullWidth />
        <NumberInput source="workerId" label="users.fields.workerId" helperText="users.workerHint" min={1} step={1} fullWidth />
      </Section>
      {canReadRoles && (
        <Section title="users.sections.access">
          <ReferenceArrayInput source="roles" reference="roles" perPage={200} sort={{ field: 'name', order: 'ASC' }}>
            <AutocompleteArrayInput label="users.fields.roles" optionText="name" filterToQuery={(q) => ({ q })} fullWidth />
          </ReferenceArrayInput>
        </Section>
      )}
    </>
  );
}
