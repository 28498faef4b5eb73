// `npx tsx src/server/telemetry/cli/createSource.ts <name> [--devices <peer address>,...]`: creates an HTTP
// telemetry source and prints its key once (only its SHA-256 is stored). Senders put the key in the
// X-Telemetry-Key header of POST /api/v1/telemetry/positions. Without --devices the source may report any
// known device.
import { loadConfig } from '../../config';
import { openDatabase } from '../../db/open';
import { migrate } from '../../db/migrate';
import { normalisePeer } from '../deviceIndex';
import { createSource } from '../http/sourceKeys';

const args = process.argv.slice(2);
const devicesAt = args.indexOf('--devices');
const deviceList = devicesAt >= 0 ? args[devicesAt + 1] : undefined;
const name = args
  .filter((_, i) => devicesAt < 0 || (i !== devicesAt && i !== devicesAt + 1))
  .join(' ')
  .trim();
if (!name || (devicesAt >= 0 && !deviceList)) {
  console.error('Использование: npx tsx src/server/telemetry/cli/createSource.ts <название источника> [--devices <peer_address>,...]');
  process.exit(2);
}
const devices = deviceList
  ? deviceList
      .split(',')
      .map((d) => d.trim())
      .filter(Boolean)
  : null;
const normalised = devices?.map((d) => normalisePeer(d));
if (normalised?.some((d) => d === undefined)) {
  console.error('Адреса устройств (peer_address) — целые числа, через запятую.');
  process.exit(2);
}

const db = await openDatabase(loadConfig());
try {
  await migrate(db);
  const existing = await db.query('select 1 from app.telemetry_source where name = $1', [name]);
  if (existing.length > 0) {
    console.error(`Источник «${name}» уже существует.`);
    process.exitCode = 1;
  } else {
    const { id, key } = await db.transaction((tx) => createSource(tx, name, normalised as string[] | null));
    console.log(`Источник телеметрии «${name}» создан (id ${id}).`);
    console.log('Ключ (показывается один раз, сохраните его; передаётся в заголовке X-Telemetry-Key):');
    console.log(key);
  }
} finally {
  await db.close();
}
