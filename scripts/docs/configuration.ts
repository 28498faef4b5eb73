// `npm run docs:configuration`: writes docs/configuration.md from the declarations of the variables.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CONFIGURATION_PAGE, configurationPage } from './configurationPage';

writeFileSync(CONFIGURATION_PAGE, configurationPage());
console.log(`${fileURLToPath(CONFIGURATION_PAGE)} written`);
