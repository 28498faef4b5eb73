import { useRights } from '../../web/components/useRights';
import { SettingsCard } from './SettingsCard';
import { SettingsInput } from './SettingsInputs';
import type { SettingsPageSpec } from './settingsPages';
import { SwitchInputs } from './SwitchInputs';

/** One /system/* page: its fields, then the module and section switches it owns. */
export function SubsystemSettings({ spec }: { spec: SettingsPageSpec }) {
  const rights = useRights(spec.path);
  const readOnly = !rights.update;
  return (
    <SettingsCard api={spec.api} title={`settings.titles.${spec.id}`} readOnly={readOnly} testId={`settings-${spec.id}`}>
      {(view) => (
        <>
          {spec.fields.map((field) => (
            <SettingsInput key={field.source} field={field} readOnly={readOnly} />
          ))}
          <SwitchInputs kind="modules" names={Object.keys(view.modules ?? {})} readOnly={readOnly} />
          <SwitchInputs kind="sections" names={Object.keys(view.sections ?? {})} readOnly={readOnly} />
        </>
      )}
    </SettingsCard>
  );
}
