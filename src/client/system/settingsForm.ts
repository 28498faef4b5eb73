/**
 * Pure rules of the system settings forms: the API's view of a subsystem ⇄ the form's values, and a
 * refused save ('bad_request', '<field> <rule>') as an error under the field at fault.
 *
 * Section switch names hold dots ('video.archiveMonitoring'), which react-hook-form would read as nesting:
 * in the form they are written with '__' instead.
 */
export type SettingsView = Record<string, unknown> & {
  modules?: Record<string, boolean>;
  sections?: Record<string, boolean>;
};

const SEPARATOR = '__';
export const escapeName = (name: string) => name.split('.').join(SEPARATOR);
export const unescapeName = (name: string) => name.split(SEPARATOR).join('.');

function mapKeys<T>(map: Record<string, T>, rename: (key: string) => string): Record<string, T> {
  return Object.fromEntries(Object.entries(map).map(([key, value]) => [rename(key), value]));
}

export function toFormValues(view: SettingsView): SettingsView {
  return view.sections ? { ...view, sections: mapKeys(view.sections, escapeName) } : { ...view };
}

/** The PUT body: the fields the page showed (the GET's keys), switches under their real names. */
export function fromFormValues(values: SettingsView, shown: SettingsView): SettingsView {
  const body: SettingsView = {};
  for (const key of Object.keys(shown)) if (values[key] !== undefined) body[key] = values[key];
  if (body.sections) body.sections = mapKeys(body.sections, unescapeName);
  return body;
}

/** react-admin's form error with arguments: translated with them by its ValidationError. */
const withArgs = (message: string, args: Record<string, string> = {}) => `@@react-admin@@${JSON.stringify({ message, args })}`;

/** The server's rule text as a translated message: the common JSON-schema rules have our words. */
export function ruleMessage(rule: string): string {
  const limit = /^must be (<=|>=|<|>) (\S+)$/.exec(rule);
  if (limit) return withArgs(limit[1].startsWith('<') ? 'settings.rules.max' : 'settings.rules.min', { limit: limit[2] });
  if (rule === 'must be integer') return withArgs('settings.rules.integer');
  if (/^must match pattern/.test(rule)) return withArgs('settings.rules.pattern');
  if (/duplicate items/.test(rule)) return withArgs('settings.rules.duplicate');
  if (/must NOT have fewer than/.test(rule)) return withArgs('settings.rules.fewer');
  if (/http or https URL/.test(rule)) return withArgs('settings.rules.url');
  if (/is required when/.test(rule)) return withArgs('settings.rules.urlRequired');
  if (/is not usable/.test(rule)) return withArgs('settings.rules.baseMap');
  return rule;
}

/**
 * The field errors of a refused save: ['bad_request', 'video.archiveDays must be <= 365'] gives
 * { video: { archiveDays: … } }; a section switch ('sections.video.archiveMonitoring …') its escaped
 * name. undefined when no message names a field.
 */
export function serverFieldErrors(messages: readonly string[]): Record<string, unknown> | undefined {
  let errors: Record<string, unknown> | undefined;
  for (const text of messages) {
    const match = /^([A-Za-z_][\w.]*) (.+)$/.exec(text);
    if (!match || match[1] === 'body') continue;
    const [field, rule] = [match[1], match[2]];
    const parts = field.startsWith('sections.') ? ['sections', escapeName(field.slice('sections.'.length))] : field.split('.');
    errors ??= {};
    let node = errors;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      node = (node[part] = typeof next === 'object' && next !== null ? next : {}) as Record<string, unknown>;
    }
    node[parts[parts.length - 1]] ??= ruleMessage(rule);
  }
  return errors;
}

/** EIS schedule: the times as one line 'ЧЧ:ММ, ЧЧ:ММ' in the form, a list in the API. */
export function parseSchedule(text: unknown): string[] {
  if (Array.isArray(text)) return text.map(String);
  return String(text ?? '')
    .split(/[\s,;]+/)
    .map((item) => item.trim())
    .filter(Boolean);
}

export function formatSchedule(value: unknown): string {
  return Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : '';
}

export const SCHEDULE_MAX = 48;
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The schedule rules of the server (1 to 48 distinct HH:MM times); an i18n key when broken. */
export function checkSchedule(value: unknown): string | undefined {
  const times = parseSchedule(value);
  if (times.length === 0) return 'settings.rules.fewer';
  if (times.length > SCHEDULE_MAX) return 'settings.rules.tooMany';
  if (times.some((time) => !HH_MM.test(time))) return 'settings.rules.pattern';
  if (new Set(times).size !== times.length) return 'settings.rules.duplicate';
  return undefined;
}

/** A media-server address template: required, http(s), no spaces ({placeholders} are filled by the server). */
export function checkUrlTemplate(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) return 'settings.rules.urlRequired';
  return /^https?:\/\/\S+$/.test(text) ? undefined : 'settings.rules.url';
}

/** EIS source: empty, or an http(s) address; required while the import is on. */
export function checkSourceUrl(url: unknown, enabled: boolean): string | undefined {
  const text = typeof url === 'string' ? url.trim() : '';
  if (!text) return enabled ? 'settings.rules.urlRequired' : undefined;
  try {
    const parsed = new URL(text);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname ? undefined : 'settings.rules.url';
  } catch {
    return 'settings.rules.url';
  }
}
