// `npm run create-admin -- <username> [email]`: the first administrator of a production install (demo data
// off). The password is read from ADMIN_PASSWORD or typed at a hidden prompt; nothing is ever defaulted.
import { createInterface } from 'node:readline/promises';
import { loadConfig } from '../config';
import { openDatabase } from '../db/open';
import { migrate } from '../db/migrate';
import { seedPlatform, ADMIN_ROLE_NAME } from '../db/seedPlatform';
import { hashPassword } from '../auth/passwords';
import { isValidPassword, usernameProblem } from '../../shared/validation';
import { ERROR_CATALOGUE } from '../../shared/errors';
import { commandLineVariables } from './config';

async function readPassword(): Promise<string> {
  const given = commandLineVariables.variables.adminPassword.read();
  if (given) return given;
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const mute = rl as unknown as { _writeToOutput: (text: string) => void };
  process.stdout.write('Пароль администратора: ');
  mute._writeToOutput = () => {};
  const password = await rl.question('');
  rl.close();
  process.stdout.write('\n');
  return password;
}

const [username, email] = process.argv.slice(2);
if (!username || usernameProblem(username)) {
  console.error('Использование: npm run create-admin -- <логин: от 3 до 64 букв, цифр и знаков . _ - @> [email]');
  process.exit(2);
}
const password = await readPassword();
if (!isValidPassword(password)) {
  console.error(ERROR_CATALOGUE.bad_password.ru);
  process.exit(2);
}
const db = await openDatabase(loadConfig());
try {
  await migrate(db.longRunning());
  await seedPlatform(db);
  const hash = await hashPassword(password);
  const created = await db.transaction(async (tx) => {
    const existing = await tx.query('select 1 from app.users where lower(username) = lower($1)', [username]);
    if (existing.length > 0) return false;
    const [user] = await tx.query<{ id: number }>(
      `insert into app.users (username, email, password_hash, title) values ($1, $2, $3, 'Администратор') returning id`,
      [username, email ?? null, hash],
    );
    await tx.query('insert into app.user_role (user_id, role_id) select $1, id from app.role where name = $2', [user.id, ADMIN_ROLE_NAME]);
    return true;
  });
  console.log(created ? `Администратор «${username}» создан.` : ERROR_CATALOGUE.username_exists.ru);
  process.exitCode = created ? 0 : 1;
} finally {
  await db.close();
}
