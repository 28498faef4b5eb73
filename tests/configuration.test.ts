import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_VARIABLE_GROUPS } from '../src/server/configuration/allVariables';
import { count, flag, group, list, number, oneOf, text } from '../src/server/configuration/variables';
import { loadConfig } from '../src/server/config';
import { geoConfig } from '../src/server/geo/config';
import { gtfsConfig } from '../src/server/gtfs/config';
import { simulatorConfig } from '../src/server/simulator/config';
import { telemetryConfig } from '../src/server/telemetry/config';
import { videoConfig } from '../src/server/video/config';
import { CONFIGURATION_COMMAND, CONFIGURATION_PAGE, configurationPage } from '../scripts/docs/configurationPage';

const declared = ALL_VARIABLE_GROUPS.flatMap((g) => Object.values(g.variables).map((variable) => variable.name));

/** The sources that read the environment: the server's modules and the scripts `npm start` runs. */
function sources(): { path: string; text: string }[] {
  const server = readdirSync('src/server', { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => join('src/server', path));
  const scripts = readdirSync('scripts', { encoding: 'utf8' })
    .filter((path) => path.endsWith('.mjs'))
    .map((path) => join('scripts', path));
  return [...server, ...scripts].map((path) => ({ path, text: readFileSync(path, 'utf8') }));
}

const matches = (pattern: RegExp, source: string): string[] => [...source.matchAll(pattern)].map((match) => match[1]!);

describe('docs/configuration.md', () => {
  it('is the page the declarations make', () => {
    expect(readFileSync(CONFIGURATION_PAGE, 'utf8'), `docs/configuration.md is out of date: run \`${CONFIGURATION_COMMAND}\``).toBe(
      configurationPage(),
    );
  });

  it('lists every variable the code reads, each declared once', () => {
    expect(
      declared.filter((name, index) => declared.indexOf(name) !== index),
      'declared twice',
    ).toEqual([]);
    const read = new Map<string, string>();
    const undeclaredGroups: string[] = [];
    const dynamic: string[] = [];
    for (const { path, text: source } of sources()) {
      for (const name of [
        ...matches(/\benv\.([A-Z][A-Z0-9_]*)\b/g, source),
        ...matches(/\benv\[\s*['"`]([A-Z][A-Z0-9_]*)['"`]\s*\]/g, source),
      ])
        read.set(name, path);
      // A declaration whose group is missing from allVariables.ts would be read but not documented.
      for (const name of matches(/\b(?:number|count|flag|text|oneOf|list)\(\s*'([A-Z][A-Z0-9_]*)'/g, source)) {
        if (!declared.includes(name)) undeclaredGroups.push(`${name} (${path})`);
      }
      // A name computed at run time escapes this check: only the declarations read that way.
      if (!path.startsWith(join('src/server/configuration')) && /\benv\[\s*[^'"`\s]/.test(source)) dynamic.push(path);
    }
    expect(read.get('SKIP_BUILD'), 'the scan finds reads in scripts').toBe(join('scripts/start.mjs'));
    const undeclared = [...read].filter(([name]) => !declared.includes(name)).map(([name, path]) => `${name} (${path})`);
    expect(undeclared, "read but not declared (declare them in the area's config.ts)").toEqual([]);
    expect(undeclaredGroups, 'declared in a group missing from src/server/configuration/allVariables.ts').toEqual([]);
    expect(dynamic, 'read the environment by a computed name').toEqual([]);
  });
});

describe('variable declarations', () => {
  const meaning = 'a test setting';

  it('read numbers: unset, empty or unreadable give the default; bounds clamp; "positive" ones fall back', () => {
    const interval = number('X_MS', { default: 5000, min: 250, max: 60_000, meaning });
    expect([undefined, '', '   ', 'soon', 'Infinity'].map((value) => interval.read({ X_MS: value }))).toEqual([
      5000, 5000, 5000, 5000, 5000,
    ]);
    expect([' 1000 ', '10', '1e9', '-3'].map((value) => interval.read({ X_MS: value }))).toEqual([1000, 250, 60_000, 250]);
    expect(number('X', { default: 6, min: 1, round: true, meaning }).read({ X: '2.6' })).toBe(3);
    const rate = number('X', { default: 30, positive: true, meaning });
    expect(['0', '-1', '0.5'].map((value) => rate.read({ X: value }))).toEqual([30, 30, 0.5]);
    expect(number('X', { meaning }).read({ X: '' })).toBeUndefined();
  });

  it('read counts strictly: anything but a positive whole number stops the start', () => {
    const rows = count('X_ROWS', { meaning });
    expect(rows.read({ X_ROWS: '' })).toBeUndefined();
    expect(rows.read({ X_ROWS: '200' })).toBe(200);
    for (const bad of ['0', '1.5', 'many']) expect(() => rows.read({ X_ROWS: bad })).toThrow('X_ROWS must be a positive integer');
  });

  it('read switches: only the opposite word changes a default; without one, unset stays unset', () => {
    const on = flag('X', { default: true, meaning });
    expect(['false', ' false ', 'true', '', 'no', '0'].map((value) => on.read({ X: value }))).toEqual([
      false,
      false,
      true,
      true,
      true,
      true,
    ]);
    const off = flag('X', { default: false, meaning });
    expect(['true', 'false', 'yes', '1'].map((value) => off.read({ X: value }))).toEqual([true, false, false, false]);
    const computed = flag('X', { meaning });
    expect(['true', 'false', '', 'on'].map((value) => computed.read({ X: value }))).toEqual([true, false, undefined, undefined]);
  });

  it('read text trimmed, empty as unset, secrets with their spaces, choices and lists', () => {
    expect(text('X', { default: 'info', meaning }).read({ X: '  ' })).toBe('info');
    expect(text('X', { meaning }).read({ X: ' /data ' })).toBe('/data');
    expect(text('X', { untrimmed: true, meaning }).read({ X: ' pass word ' })).toBe(' pass word ');
    expect(text('X', { untrimmed: true, meaning }).read({ X: '' })).toBeUndefined();
    const scale = oneOf('X', ['city', 'test'], { default: 'city', meaning });
    expect(['test', ' test', 'huge', ''].map((value) => scale.read({ X: value }))).toEqual(['test', 'test', 'city', 'city']);
    expect(list('X', { meaning }).read({ X: ' bc , -video,,' })).toEqual(['bc', '-video']);
    expect(list('X', { meaning }).read({})).toEqual([]);
  });

  it('read a group into typed values, and document its defaults', () => {
    const settings = group('Test', {
      port: number('X_PORT', { default: 3000, meaning }),
      host: text('X_HOST', { default: '0.0.0.0', meaning }),
    });
    expect(settings.read({ X_PORT: '8080' })).toEqual({ port: 8080, host: '0.0.0.0' });
    expect(number('X', { default: 250, min: 50, unit: 'ms', meaning }).documentation.default).toBe('`250` ms, at least `50`');
    expect(number('X', { default: 365, min: 1, max: 400, meaning }).documentation.default).toBe('`365`, from `1` to `400`');
    expect(text('X', { defaultText: '`DATA_DIR/tiles`', meaning }).documentation.default).toBe('`DATA_DIR/tiles`');
  });
});

describe("the areas' settings", () => {
  it('keep their defaults, bounds and computed defaults', () => {
    const server = loadConfig({ PORT: '', MODULES: ' bc , -video', EXPORT_BATCH_ROWS: '' });
    expect(server.port).toBe(3000);
    expect(server.switches.modules).toMatchObject({ bc: true, video: false });
    expect(server.exportBatchRows).toBe(1000);
    expect(loadConfig({ DATABASE_URL: 'postgres://db' }).exportBatchRows).toBe(5000);
    expect(() => loadConfig({ EXPORT_BATCH_ROWS: '0' })).toThrow('EXPORT_BATCH_ROWS must be a positive integer');
    expect(loadConfig({ HEAVY_REQUESTS_PER_USER: '0' }).heavyRequestsPerUser).toBe(1);
    expect(geoConfig({ GEO_REBUILD_MS: '10', GEO_CLUSTER_MAX_ZOOM: '30', GEO_HEARTBEAT_S: '2' })).toMatchObject({
      rebuildMs: 50,
      clusterMaxZoom: 22,
      heartbeatMs: 2000,
    });
    expect(gtfsConfig({ GTFS_PERIOD_DAYS: '1000', OPERATOR_TZ_OFFSET_MINUTES: '300' }).static).toMatchObject({
      periodDays: 400,
      timezone: 'Etc/GMT-5',
      key: null,
    });
    expect(simulatorConfig(false, { OPERATOR_TZ_OFFSET_MINUTES: '120', SIMULATOR_PARKED_EVERY: '0' })).toMatchObject({
      tzOffsetMinutes: 120,
      parkedEvery: 1,
      enabled: false,
    });
    expect(videoConfig({ VIDEO_MAX_DOWNLOADS: '0', VIDEO_CONNECT_MS: '10' })).toMatchObject({ maxDownloads: 50, connectMs: 10 });
    expect(telemetryConfig({ VITEST: 'true' }).egtsPort).toBe(0);
    expect(telemetryConfig({ EGTS_MAX_FRAME_BYTES: '100000', TRACK_STATEMENT_ROWS: '' })).toMatchObject({
      egtsPort: 5162,
      egtsMaxFrameBytes: 65_553,
      trackStatementRows: undefined,
    });
  });
});
