import { fail } from '../http/errors';
import { isPlainObject, type SettingsDocument, type StoredSettings, type Tunables } from './settingsDocument';
import type { Subsystem } from './subsystems';

/** A validated PUT body: any subset of fields, and switches to turn. */
export type SettingsPatch = Partial<Tunables> & { modules?: Record<string, boolean>; sections?: Record<string, boolean> };

/** The subsystem's fields and switches as in force: what its GET returns and its PUT answers. */
export type SubsystemView = SettingsPatch;

/**
 * The new stored value: the patch over what is stored. A nested object is completed from the document in
 * force, so the stored value always holds whole objects; switches merge name by name.
 */
export function applyPatch(stored: StoredSettings, current: SettingsDocument, patch: SettingsPatch): StoredSettings {
  const next: StoredSettings = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if ((key === 'modules' || key === 'sections') && isPlainObject(value)) {
      next[key] = { ...(isPlainObject(stored[key]) ? stored[key] : {}), ...value };
    } else if (isPlainObject(value)) {
      const base = current[key as keyof SettingsDocument];
      next[key] = { ...(isPlainObject(base) ? base : {}), ...value };
    } else {
      next[key] = value;
    }
  }
  return next;
}

/** Rules across fields the schema cannot say; the first broken one refuses the whole save. */
export function checkSettings(document: SettingsDocument): void {
  const { enabled, sourceUrl } = document.eis;
  if (sourceUrl !== '' && !isHttpUrl(sourceUrl)) throw fail(400, 'bad_request', 'eis.sourceUrl must be an http or https URL');
  if (enabled && sourceUrl === '') throw fail(400, 'bad_request', 'eis.sourceUrl is required when eis.enabled');
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The subsystem's part of the document; a switch not set anywhere is on (modules.isEnabled). */
export function viewOf(subsystem: Pick<Subsystem, 'keys' | 'modules' | 'sections'>, document: SettingsDocument): SubsystemView {
  const view: Record<string, unknown> = Object.fromEntries(subsystem.keys.map((key) => [key, document[key]]));
  if (subsystem.modules.length) view.modules = Object.fromEntries(subsystem.modules.map((id) => [id, document.modules[id] !== false]));
  if (subsystem.sections.length) view.sections = Object.fromEntries(subsystem.sections.map((id) => [id, document.sections[id] !== false]));
  return view as SubsystemView;
}

const maskPassword = (url: string) => url.replace(/\/\/([^/@:]*):[^/@]*@/, '//$1:***@');

/** A view fit for the journal: a password in a URL (https://user:secret@host) is masked. */
export function journalView(view: SubsystemView): SubsystemView {
  const masked = { ...view };
  if (view.eis) masked.eis = { ...view.eis, sourceUrl: maskPassword(view.eis.sourceUrl) };
  if (view.baseMap) masked.baseMap = { ...view.baseMap, location: maskPassword(view.baseMap.location) };
  return masked;
}
