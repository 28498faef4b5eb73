import type { Db } from '../db/types';
import type { Config } from '../config';
import type { SystemSettings } from '../../shared/api';
import type { Switches } from '../../shared/modules';

export type { SystemSettings };

const DEFAULTS: Omit<SystemSettings, 'modules' | 'sections'> = {
  journals: { retentionDays: 365 },
  maxCenterDeviation: 100,
  messageFrequency: 30,
  report_formats: ['csv', 'xlsx'],
  reports: { maxPeriodDays: 31 },
  requestRadius: 500,
  video: { maxRequestMinutes: 30, archiveDays: 14 },
  kkv: { enabled: false },
  egtsEquipmentDataMaxAge: 300,
};

/**
 * Settings as in force: defaults, then the environment's switches, then what an administrator stored.
 * Read through a short cache: every request checks the switches, and several processes must converge
 * within seconds of a change.
 */
export class SettingsService {
  private cached?: { value: SystemSettings; at: number };

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly ttlMs = 3000,
  ) {}

  async get(): Promise<SystemSettings> {
    if (this.cached && Date.now() - this.cached.at < this.ttlMs) return this.cached.value;
    const rows = await this.db.query<{ value: Partial<SystemSettings> }>('select value from app.settings where id = 1');
    const stored = rows[0]?.value ?? {};
    const value: SystemSettings = {
      ...DEFAULTS,
      ...stored,
      modules: { ...this.config.switches.modules, ...stored.modules },
      sections: { ...this.config.switches.sections, ...stored.sections },
    };
    this.cached = { value, at: Date.now() };
    return value;
  }

  async switches(): Promise<Switches> {
    const { modules, sections } = await this.get();
    return { modules, sections };
  }

  invalidate(): void {
    this.cached = undefined;
  }
}
