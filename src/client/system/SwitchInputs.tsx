import { Box, Typography } from '@mui/material';
import { BooleanInput, useTranslate } from 'react-admin';
import { escapeName } from './settingsForm';

interface SwitchInputsProps {
  kind: 'modules' | 'sections';
  /** Switch names (real names: 'video.archiveMonitoring'). */
  names: readonly string[];
  readOnly: boolean;
  /** Names that may not be switched off from here (the page would lock itself away). */
  locked?: readonly string[];
  /** Show the group's heading. */
  heading?: boolean;
}

/** Labels: modules.<id>; sections access.sections.<id> (a dotted id reads as nested keys). */
export const switchLabel = (kind: 'modules' | 'sections', name: string) =>
  kind === 'modules' ? `modules.${name}` : `access.sections.${name}`;

/** Module or section switches as toggles, in a grid. */
export function SwitchInputs({ kind, names, readOnly, locked = [], heading = true }: SwitchInputsProps) {
  const translate = useTranslate();
  if (names.length === 0) return null;
  return (
    <Box sx={{ width: '100%' }}>
      {heading && (
        <Typography variant="subtitle2" color="text.secondary" sx={{ mt: 1 }}>
          {translate(kind === 'modules' ? 'settings.modulesTitle' : 'settings.sectionsTitle')}
        </Typography>
      )}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '1fr 1fr 1fr' }, columnGap: 2 }}>
        {names.map((name) => (
          <BooleanInput
            key={name}
            source={`${kind}.${escapeName(name)}`}
            label={translate(switchLabel(kind, name), { _: name })}
            readOnly={readOnly || locked.includes(name)}
            helperText={false}
            sx={{ '& .MuiFormControlLabel-root': { mr: 0 } }}
          />
        ))}
      </Box>
    </Box>
  );
}
