import { useCallback, useMemo, type ReactNode } from 'react';
import { Alert, Box, Card, CardContent, CircularProgress, Typography } from '@mui/material';
import { SaveButton, SimpleForm, Toolbar, useNotify, useTranslate } from 'react-admin';
import { toFormValues, type SettingsView } from './settingsForm';
import { useSettings } from './useSettings';

interface SettingsCardProps {
  api: string;
  /** i18n key of the card's heading. */
  title: string;
  readOnly: boolean;
  /** The inputs, for the loaded view (its switches list what the page may turn). */
  children: (view: SettingsView) => ReactNode;
  testId: string;
}

/** One settings form: loaded with GET, saved with PUT; read-only (no save) without the update right. */
export function SettingsCard({ api, title, readOnly, children, testId }: SettingsCardProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const onSaved = useCallback(() => notify('settings.saved', { type: 'success' }), [notify]);
  const { view, failed, version, save } = useSettings(api, onSaved);
  const record = useMemo(() => (view ? toFormValues(view) : undefined), [view]);
  return (
    <Card variant="outlined" sx={{ width: '100%', maxWidth: 880 }} data-testid={testId}>
      <CardContent sx={{ pb: 0 }}>
        <Typography variant="h6" component="h2">
          {translate(title)}
        </Typography>
        {readOnly && (
          <Alert severity="info" sx={{ mt: 1 }} data-testid="settings-read-only">
            {translate('settings.readOnly')}
          </Alert>
        )}
      </CardContent>
      {!view || !record ? (
        <Box sx={{ p: 3, display: 'flex', justifyContent: 'center' }}>{failed ? null : <CircularProgress size={28} />}</Box>
      ) : (
        <SimpleForm
          key={version}
          record={record}
          onSubmit={save}
          toolbar={
            readOnly ? (
              false
            ) : (
              <Toolbar>
                <SaveButton />
              </Toolbar>
            )
          }
          sx={{ pt: 1 }}
        >
          {children(view)}
        </SimpleForm>
      )}
    </Card>
  );
}
