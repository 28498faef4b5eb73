import { group, text } from '../configuration/variables';

/** What the command-line tools (`npm run …`, src/server/cli) read besides the server's settings. */
export const commandLineVariables = group('Command-line tools', {
  adminPassword: text('ADMIN_PASSWORD', {
    untrimmed: true,
    meaning: "`npm run create-admin`: the new administrator's password; unset = typed at a hidden prompt (nothing is ever defaulted)",
  }),
});
