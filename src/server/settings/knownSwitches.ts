import { CONSOLE_ROUTES } from '../../shared/routes';
import { HANDBOOK_SECTIONS_OFF, HANDBOOK_SECTIONS_ON, JOURNAL_SWITCHES, MODULES, type ModuleId } from '../../shared/modules';

/**
 * The switches an administrator may set through the API: every module, and every section a console route or
 * a handbook names, plus the journal switches (pass errors has no route of its own: it filters /journal/eventsts).
 * A name outside these lists is refused, so a typo cannot be stored as a switch nobody reads.
 */
export const KNOWN_MODULES: readonly ModuleId[] = MODULES;

export const JOURNAL_SECTIONS: readonly string[] = [...JOURNAL_SWITCHES, 'adas'].map((name) => `journals.${name}`);

export const KNOWN_SECTIONS: readonly string[] = [
  ...new Set([
    ...CONSOLE_ROUTES.flatMap((route) => (route.section ? [route.section] : [])),
    ...JOURNAL_SECTIONS,
    ...[...HANDBOOK_SECTIONS_ON, ...HANDBOOK_SECTIONS_OFF].map((type) => `handbooks.${type}`),
  ]),
].sort();
