// `npm run import-gtfs -- feed.zip`: loads a GTFS feed into the configured database (the embedded one in DATA_DIR
// while the server is stopped, or DATABASE_URL), as the console's import does, and prints its report.
import { existsSync } from 'node:fs';
import { loadConfig } from '../../config';
import { migrate } from '../../db/migrate';
import { openDatabase } from '../../db/open';
import { operatorDate, operatorTzOffset } from '../../platform/operatorDay';
import { importFeed } from '../import/importFeed';

const [path] = process.argv.slice(2);
if (!path || !existsSync(path)) {
  console.error('Использование: npm run import-gtfs -- <файл GTFS.zip>');
  process.exit(2);
}
const offset = operatorTzOffset();
const db = await openDatabase(loadConfig());
try {
  await migrate(db.longRunning());
  let shown = '';
  const { outcome, report } = await importFeed(db, path, {
    operatorOffsetMinutes: offset,
    today: operatorDate(Date.now(), offset),
    onStage: (stage, progress) => {
      const line = `${stage} ${Math.round(progress * 100)} %`;
      if (line !== shown) process.stderr.write(`\r${(shown = line)}   `);
    },
  });
  process.stderr.write('\n');
  for (const file of report.files) console.log(`${file.file}: прочитано ${file.read}, записано ${file.written}, пропущено ${file.skipped}`);
  for (const notice of report.notices) {
    console.log(
      `${notice.severity === 'error' ? 'ОШИБКА' : 'предупреждение'} ${notice.code} ${[notice.file, notice.line, notice.field, notice.value].filter((x) => x !== undefined).join(' ')}`,
    );
  }
  if (report.written) console.log(JSON.stringify(report.written));
  console.log(outcome === 'done' ? 'Сеть загружена.' : 'Фид отклонён: справочники не изменены.');
  process.exitCode = outcome === 'done' ? 0 : 1;
} finally {
  await db.close();
}
