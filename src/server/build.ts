import { readFileSync } from 'node:fs';
import { projectFile } from './entryPoints';
import { serverVariables } from './config';

const pkg = JSON.parse(readFileSync(projectFile('package.json'), 'utf8')) as { version: string };

/** Version and build date shown in the about page and the field app's menu. */
export const BUILD = { version: pkg.version, date: serverVariables.variables.buildDate.read() ?? new Date().toISOString().slice(0, 10) };
