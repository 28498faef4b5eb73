import { Alert, Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useRights } from '../../web/components/useRights';
import { SettingsCard } from './SettingsCard';
import { MODULES_API, MODULES_PATH } from './settingsPages';
import type { SettingsView } from './settingsForm';
import { SwitchInputs } from './SwitchInputs';
import { HANDBOOK_SECTIONS_OFF, HANDBOOK_SECTIONS_ON, JOURNAL_SWITCHES } from '../../shared/modules';
import { CONSOLE_ROUTES } from '../../shared/routes';

/** Administration holds this very page: switching it off here would lock the switches away. */
const LOCKED_MODULES = ['administration'];
const SECTION_GROUPS = ['video', 'passengers', 'system', 'journals', 'handbooks'] as const;

/** Sections in menu order: the routes' own, the journals' switches, the handbooks as the menu lists them. */
const SECTION_ORDER: readonly string[] = [
  ...CONSOLE_ROUTES.flatMap((route) => (route.section ? [route.section] : [])),
  ...[...JOURNAL_SWITCHES, 'adas'].map((name) => `journals.${name}`),
  ...[...HANDBOOK_SECTIONS_ON, ...HANDBOOK_SECTIONS_OFF].map((type) => `handbooks.${type}`),
];
const rank = (name: string) => (SECTION_ORDER.includes(name) ? SECTION_ORDER.indexOf(name) : SECTION_ORDER.length);

/** Sections by the module they belong to ('handbooks.stops' → handbooks), in menu order. */
export function sectionGroups(sections: readonly string[]): { group: string; names: string[] }[] {
  const ordered = [...sections].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const groups = SECTION_GROUPS.map((group) => ({ group, names: ordered.filter((name) => name.split('.')[0] === group) }));
  const rest = ordered.filter((name) => !(SECTION_GROUPS as readonly string[]).includes(name.split('.')[0]));
  return [...groups, { group: 'other', names: rest }].filter((entry) => entry.names.length > 0);
}

function Switches({ view, readOnly }: { view: SettingsView; readOnly: boolean }) {
  const translate = useTranslate();
  return (
    <>
      <Alert severity="warning" variant="outlined" sx={{ width: '100%' }}>
        {translate('settings.switchesHint')}
      </Alert>
      <SwitchInputs kind="modules" names={Object.keys(view.modules ?? {})} readOnly={readOnly} locked={LOCKED_MODULES} />
      <Typography variant="subtitle2" color="text.secondary" sx={{ mt: 1 }}>
        {translate('settings.sectionsTitle')}
      </Typography>
      {sectionGroups(Object.keys(view.sections ?? {})).map(({ group, names }) => (
        <Box key={group} sx={{ width: '100%' }}>
          <Typography variant="body2" sx={{ fontWeight: 500, mt: 1 }}>
            {translate(`modules.${group}`, { _: group })}
          </Typography>
          <SwitchInputs kind="sections" names={names} readOnly={readOnly} heading={false} />
        </Box>
      ))}
    </>
  );
}

/**
 * The module and section switches of the whole system (GET/PUT /api/v1/settings/modules): shown with
 * the read right on roles, changeable with the update right on roles.
 */
export function ModuleSwitchesCard() {
  const rights = useRights(MODULES_PATH);
  if (!rights.read) return null;
  return (
    <SettingsCard api={MODULES_API} title="settings.titles.modules" readOnly={!rights.update} testId="settings-modules">
      {(view) => <Switches view={view} readOnly={!rights.update} />}
    </SettingsCard>
  );
}
