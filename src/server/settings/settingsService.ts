import type { Db, Queryable } from '../db/types';
import { ReadCache, staleWindow } from '../db/readCache';
import type { Config } from '../config';
import type { Bus } from '../bus/bus';
import type { SystemSettings } from '../../shared/api';
import type { Switches } from '../../shared/modules';
import { effectiveSettings, publicSettings, type SettingsDocument, type StoredSettings, type Tunables } from './settingsDocument';

export type { SystemSettings };

/**
 * Settings as in force: defaults, then the environment's switches, then what an administrator stored.
 * Read through a short cache: every request checks the switches. A saved change is forgotten at once in the
 * process that saved it and, over the bus, in every other; should the bus be down, within the cache's 3 s.
 */
export class SettingsService {
  /** An expired document is answered while it is read again (see ReadCache). */
  private readonly cache: ReadCache<'document', SettingsDocument>;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly bus: Bus,
    /** Defaults the environment gives (TILE_SOURCE's base map), below what an administrator stored. */
    private readonly envDefaults: Partial<Tunables> = {},
    ttlMs = 3000,
  ) {
    this.cache = new ReadCache(ttlMs, staleWindow(db));
    bus.subscribe('cache', (change) => {
      if (change.kind === 'settings') this.cache.clear();
    });
    bus.onReconnect(() => this.cache.clear());
  }

  /** The document every logged-in user receives (CurrentUser.settings). */
  async get(): Promise<SystemSettings> {
    return publicSettings(await this.document());
  }

  /** The whole document, server-only parts included. */
  async document(): Promise<SettingsDocument> {
    const document = await this.cache.get('document', async () => {
      const rows = await this.db.query<{ value: StoredSettings }>('select value from app.settings where id = 1');
      return this.resolve(rows[0]?.value ?? {});
    });
    return document!;
  }

  async switches(): Promise<Switches> {
    const { modules, sections } = await this.document();
    return { modules, sections };
  }

  /** The document a stored value would give, with this process's environment switches. */
  resolve(stored: StoredSettings): SettingsDocument {
    return effectiveSettings(stored, this.config.switches, this.envDefaults);
  }

  /** The stored value, locked until the transaction ends so that two saves cannot lose each other's fields. */
  async storedForUpdate(tx: Queryable): Promise<StoredSettings> {
    const rows = await tx.query<{ value: StoredSettings }>('select value from app.settings where id = 1 for update');
    return rows[0]?.value ?? {};
  }

  async store(tx: Queryable, value: StoredSettings): Promise<void> {
    await tx.query(
      `insert into app.settings (id, value, updated_at) values (1, $1, now())
       on conflict (id) do update set value = excluded.value, updated_at = now()`,
      [JSON.stringify(value)],
    );
  }

  /** After a saved change: every process reads the settings again. */
  invalidate(): void {
    this.cache.clear();
    this.bus.publish('cache', { kind: 'settings' });
  }
}
