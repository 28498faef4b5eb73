import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../types';
import { hashPassword } from '../../auth/passwords';
import { DEMO_ACCOUNTS } from './accounts';
import { DEMO_ROLES } from './roles';
import { generateDemoData, type DemoScale } from './generate';
import { insertDemoIncidents } from './incidents';
import { insertDemoTicketControl } from './ticketControl';
import { insertDemoPdm } from './pdm';
import { insertDemoRowFiles } from './handbookRows';
import { insertDemoLinks } from './links';
import { insertRows, resetSequence } from './insertRows';
import type { DemoData } from './rows';
import { TABLES } from './tables';

export type { DemoScale } from './generate';

/** Loads the demo operator on first start; a database that already has users is left as it is. */
/** Loads the demo operator into a database with no users yet; true when it did. */
export async function loadDemoDataIfEmpty(db: Db, scale: DemoScale, log: FastifyBaseLogger): Promise<boolean> {
  const [{ n }] = await db.query<{ n: number }>('select count(*)::int as n from app.users');
  if (n > 0) return false;
  const started = performance.now();
  await loadDemoData(db, scale);
  log.info({ ms: Math.round(performance.now() - started) }, 'demo data loaded');
  return true;
}

/**
 * The demo roles and logins, then the generated operator (handbooks, network, schedule, fleet, incident history,
 * ticket control) and the handbooks' own demo rows (rows/), in one transaction.
 */
export async function loadDemoData(db: Db, scale: DemoScale, today: Date = new Date()): Promise<void> {
  const hashes = await Promise.all(DEMO_ACCOUNTS.map((account) => hashPassword(account.password)));
  const data = generateDemoData(scale, today);
  await db.transaction(async (tx) => {
    for (const role of DEMO_ROLES) {
      await tx.query('insert into app.role (name, description, permissions) values ($1, $2, $3) on conflict (name) do nothing', [
        role.name,
        role.description,
        JSON.stringify(role.permissions),
      ]);
    }
    for (const [i, account] of DEMO_ACCOUNTS.entries()) {
      const [user] = await tx.query<{ id: number }>(
        `insert into app.users (username, email, password_hash, first_name, last_name, title, is_blocked)
         values ($1, $2, $3, $4, $5, $6, $7) returning id`,
        [
          account.username,
          `${account.username}@demo.local`,
          hashes[i],
          account.firstName,
          account.lastName,
          account.title,
          account.blocked,
        ],
      );
      await tx.query('insert into app.user_role (user_id, role_id) select $1, id from app.role where name = $2', [user.id, account.role]);
    }
    for (const key of Object.keys(TABLES) as (keyof DemoData)[]) await loadTable(tx, data, key);
    await insertDemoLinks(tx);
    await insertDemoIncidents(tx, scale, today);
    await insertDemoTicketControl(tx, scale, today);
    await insertDemoPdm(tx, scale, today);
    await insertDemoRowFiles(tx);
  });
}

async function loadTable<K extends keyof DemoData>(tx: Queryable, data: DemoData, key: K): Promise<void> {
  await insertRows(tx, TABLES[key], data[key]);
  await resetSequence(tx, TABLES[key]);
}
