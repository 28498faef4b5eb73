import type { FastifyBaseLogger } from 'fastify';
import { decodeSensorSubrecord, encodeAdSensors, encodeCounters, encodeLiquidLevel, type SensorBatch } from '../telemetry/egts/sensors';
import type { Lease } from '../jobs/leases';
import { PeriodicJob } from '../jobs/periodicJob';
import type { SensorNode } from './nodeIndex';

/**
 * The demo fleet's sensors: each vehicle with a tree sends, as its terminal would, AD_SENSORS_DATA (engine
 * temperature A1 in tenths of a degree above −40 °C, on-board voltage A2 in millivolts, oil pressure A3 in
 * hundredths of a bar, coolant level switch D1), COUNTERS_DATA (door cycles C1) and LIQUID_LEVEL_SENSOR (fuel
 * L0 in 0.1 % steps). The bytes go through the same decoder as EGTS, then the same ingestion. A few vehicles
 * drift out of range and back, some sensors fail for a while (the fuel sensor's own error flag, the coolant
 * switch), and some go silent past their time-out; all by the clock, so a restart continues the story.
 */
export interface SimulatorOptions {
  /** How often each vehicle reports. */
  everyMs: number;
  /** The simulator's lease: the sensors report from the process driving the fleet. */
  lease?: Lease;
}

/** A vehicle's mix and phase, the same as the demo history's SQL (src/server/db/demo/pdm.ts). */
const hash = (vehicleId: number) => Number((BigInt(vehicleId) * 2654435761n) % 1000003n);

/** The terminal's readings of one vehicle at one time, as its subrecords. */
export function simulatedSubrecords(vehicleId: number, now: number) {
  const h = hash(vehicleId);
  const s = now / 1000;
  const phase = ((vehicleId * 7919) % 1000) / 160;
  const wave = (periodS: number) => Math.sin((2 * Math.PI * s) / periodS + phase);
  const overheating = h % 11 === 0 ? Math.max(0, 30 * wave(7200)) : 0;
  const engineTemp = 86 + 3 * wave(1800) + overheating;
  const voltageDrop = h % 13 === 0 ? Math.max(0, 5 * wave(5400)) : 0;
  const voltage = 27.8 + 0.3 * wave(600) - voltageDrop;
  const oil = 3.6 + 0.3 * wave(900) - (h % 19 === 0 ? Math.max(0, 3 * wave(3600)) : 0);
  const coolantOk = h % 7 === 0 && wave(2700) > 0.85 ? 0 : 1;
  // fuel: a saw from 95 % down to 15 %, refuelled, one period of 8 hours per vehicle
  const cycle = (s / 28_800 + (h % 97) / 97) % 1;
  const fuel = 95 - 80 * cycle;
  const fuelError = h % 23 === 0 && wave(3000) > 0.9;
  const doors = Math.floor(s / 45 + (h % 500)) % 0xffffff;
  const silentOil = h % 17 === 0 && wave(10_800) > 0.8;
  return [
    encodeAdSensors({
      digital: [coolantOk],
      analog: [(engineTemp + 40) * 10, voltage * 1000, silentOil ? undefined : Math.max(0, oil) * 100],
    }),
    encodeCounters([doors]),
    encodeLiquidLevel({ number: 0, value: fuel, unit: 'percent', error: fuelError }),
  ];
}

export class SensorSimulator {
  private readonly job: PeriodicJob;
  private turn = 0;

  constructor(
    private readonly fleet: () => { vehicleId: number; sensors: SensorNode[] }[],
    private readonly ingest: (batches: SensorBatch[]) => Promise<boolean>,
    log: FastifyBaseLogger,
    private readonly options: SimulatorOptions,
  ) {
    this.job = new PeriodicJob(() => this.tick(), log, 'PDM sensor simulation tick failed', options.lease);
  }

  /** One tick: a share of the fleet reports (every vehicle once per `everyMs`, spread over 1-second ticks). */
  async tick(now = Date.now()): Promise<number> {
    const ticks = Math.max(1, Math.round(this.options.everyMs / 1000));
    const vehicles = this.fleet().filter((v) => v.sensors.length && (v.vehicleId + this.turn) % ticks === 0);
    this.turn += 1;
    const batches: SensorBatch[] = vehicles.map(({ vehicleId }) => ({
      vehicleId,
      time: now,
      samples: simulatedSubrecords(vehicleId, now).flatMap((sub) => decodeSensorSubrecord(sub)),
    }));
    if (batches.length) await this.ingest(batches);
    return batches.length;
  }

  start(): void {
    this.job.start(1000);
  }

  stop(): Promise<void> {
    return this.job.stop();
  }
}
