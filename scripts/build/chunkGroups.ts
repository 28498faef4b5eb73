import type { CodeSplittingGroup } from 'rolldown';

/** The front ends' entry modules (and their pages), which stay in their own chunks. */
const ENTRY_MODULE = /[\\/]src[\\/](client|mobile)[\\/]main\.tsx$|\.html$/;
/** MUI and the popper its popups use (react-admin's own code is cut as usual). */
const MUI = /node_modules[\\/](@mui[\\/](material|system|utils|icons-material)|@popperjs[\\/]core)[\\/]/;
/** The whole Russian catalogue and the area catalogues it takes in (ruShell.ts is the shell's). */
const CATALOGUE =
  /[\\/]src[\\/](client[\\/](i18n[\\/]ru\.ts|equipment[\\/]equipmentMessages\.ts|pdm[\\/]pdmMessages\.ts)|shared[\\/]video[\\/]statuses\.ts)$/;

/**
 * How the built code is cut into files, for a phone on a slow network (field-app spec 9), where each file costs
 * headers and a round trip (0.56 s on Fast 3G, six at a time over HTTP/1.1):
 * - `shell`: everything the login pages run at once (what an entry imports statically), one file for both;
 * - `mui`: the MUI components and icons the apps load after login, one file rather than a score of small ones
 *   (which screen uses which MUI part cut them up);
 * - `catalogue`: the whole Russian catalogue, which comes with either app.
 * Everything else (each screen loaded on demand) is cut by Rolldown as before. MUI's and the catalogue's
 * modules only define components and strings when loaded (no side effects), so gathering them without their
 * importers does not change what the code does.
 */
export const CHUNK_GROUPS: CodeSplittingGroup[] = [
  { name: 'shell', tags: ['$initial'], test: (id) => !ENTRY_MODULE.test(id), priority: 2 },
  { name: 'mui', test: MUI, includeDependenciesRecursively: false, priority: 1 },
  { name: 'catalogue', test: CATALOGUE, includeDependenciesRecursively: false, priority: 1 },
];
