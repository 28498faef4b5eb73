import { useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Stack,
  TextField,
} from '@mui/material';
import { TERMINAL_PARAMETERS, validateParameters, type ParameterValues } from '../../shared/equipment/parameters';
import { translateMessage } from '../../shared/errors';
import { useT } from '../../web/i18n/translate';
import { showMessage } from '../../web/stores/messageStore';
import type { ConfigurationRow } from '../../shared/equipment/api';
import { createConfiguration, newVersion, updateConfiguration } from './equipmentApi';

export type ConfigurationDialogMode = { kind: 'create'; base?: ParameterValues } | { kind: 'edit' | 'version'; row: ConfigurationRow };

/**
 * A configuration's parameters as a form generated from their declarations (shared/equipment/parameters.ts):
 * the same check as the server's before sending. Editing is for drafts; a rolled-out one gets a new version.
 */
export function ConfigurationDialog({
  mode,
  onClose,
  onSaved,
}: {
  mode: ConfigurationDialogMode;
  onClose: () => void;
  onSaved: () => void;
}) {
  const t = useT();
  const initial =
    mode.kind === 'create'
      ? (mode.base ?? Object.fromEntries(TERMINAL_PARAMETERS.map((p) => [p.key, p.defaultValue])))
      : mode.row.parameters;
  const [name, setName] = useState(mode.kind === 'create' ? '' : mode.row.name);
  const [comment, setComment] = useState(mode.kind === 'create' ? '' : (mode.row.comment ?? ''));
  const [values, setValues] = useState<Record<string, string | boolean>>(() =>
    Object.fromEntries(
      TERMINAL_PARAMETERS.map((p) => [
        p.key,
        typeof initial[p.key] === 'boolean' ? (initial[p.key] as boolean) : String(initial[p.key] ?? ''),
      ]),
    ),
  );
  const [saving, setSaving] = useState(false);

  const parameters = (): ParameterValues =>
    Object.fromEntries(
      TERMINAL_PARAMETERS.flatMap((p): [string, string | number | boolean][] => {
        const raw = values[p.key];
        if (raw === '' || raw === undefined) return [];
        if (p.type === 'boolean') return [[p.key, Boolean(raw)]];
        if (p.type === 'integer' || p.type === 'port') return [[p.key, /^-?\d+$/.test(String(raw)) ? Number(raw) : String(raw)]];
        return [[p.key, String(raw)]];
      }),
    );
  const problems = validateParameters(parameters());
  const problemOf = (key: string) => problems.find((p) => p.key === key);

  const save = async () => {
    setSaving(true);
    try {
      const body = { parameters: parameters(), comment: comment || undefined };
      if (mode.kind === 'create') await createConfiguration({ name, ...body });
      else if (mode.kind === 'edit') await updateConfiguration(mode.row.id, body);
      else await newVersion(mode.row.id, body);
      showMessage(t('equipment.configurations.saved'), 'success');
      onSaved();
    } catch {
      // the http client has shown the server's message
    } finally {
      setSaving(false);
    }
  };

  const title =
    mode.kind === 'create'
      ? t('equipment.configurations.create')
      : mode.kind === 'edit'
        ? `${t('equipment.configurations.edit')}: ${mode.row.name} v${mode.row.version}`
        : `${t('equipment.configurations.newVersion')}: ${mode.row.name}`;
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }} data-testid="configuration-form">
          {mode.kind === 'create' && (
            <TextField
              label={t('equipment.configurations.name')}
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              size="small"
              slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'configuration-name' } }}
            />
          )}
          {TERMINAL_PARAMETERS.map((p) =>
            p.type === 'boolean' ? (
              <FormControlLabel
                key={p.key}
                label={p.label}
                control={
                  <Checkbox checked={Boolean(values[p.key])} onChange={(e) => setValues({ ...values, [p.key]: e.target.checked })} />
                }
              />
            ) : (
              <TextField
                key={p.key}
                size="small"
                label={`${p.label}${p.unit ? `, ${p.unit}` : ''}`}
                required={p.required}
                value={values[p.key]}
                onChange={(e) => setValues({ ...values, [p.key]: e.target.value })}
                error={Boolean(problemOf(p.key))}
                helperText={
                  problemOf(p.key) ? translateMessage(problemOf(p.key)!.code) : p.min !== undefined ? `${p.min}…${p.max}` : undefined
                }
                slotProps={{ htmlInput: { 'data-testid': `parameter-${p.key}` } }}
              />
            ),
          )}
          <TextField
            label={t('equipment.configurations.comment')}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            size="small"
            multiline
            slotProps={{ htmlInput: { maxLength: 1000 } }}
          />
          {mode.kind === 'version' && <Alert severity="info">{t('equipment.configurations.lockedHint')}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('equipment.configurations.cancel')}</Button>
        <Button
          variant="contained"
          onClick={save}
          disabled={saving || problems.length > 0 || (mode.kind === 'create' && !name.trim())}
          data-testid="configuration-save"
        >
          {t('equipment.configurations.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
