import { SETTINGS_FIELDS, type JsonSchema } from '../../shared/settings/fields';
import type { TunableKey } from './settingsDocument';
import type { Subsystem } from './subsystems';

/** Each field's type and range (declared in src/shared/settings/fields.ts, read by the console's form too). */
export const FIELD_SCHEMAS = SETTINGS_FIELDS satisfies Record<TunableKey, JsonSchema>;

export const switchesSchema = (names: readonly string[], description: string): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(names.map((name) => [name, { type: 'boolean' }])),
  description,
});

/** The PUT body of one subsystem: its fields and switches, each optional, nothing else. */
export function subsystemBodySchema(subsystem: Subsystem): JsonSchema {
  const properties: Record<string, JsonSchema> = Object.fromEntries(subsystem.keys.map((key) => [key, FIELD_SCHEMAS[key]]));
  if (subsystem.modules.length) properties.modules = switchesSchema(subsystem.modules, 'Включение модулей');
  if (subsystem.sections.length) properties.sections = switchesSchema(subsystem.sections, 'Включение разделов');
  return { type: 'object', additionalProperties: false, properties };
}
