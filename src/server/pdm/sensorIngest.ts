import type { ChannelSample, SensorBatch } from '../telemetry/egts/sensors';
import type { LatestPositions } from '../telemetry/latestPositions';
import type { NodeIndex } from './nodeIndex';
import type { Reading, ReadingWriter } from './readingWriter';

/**
 * Channel samples (EGTS sensor subrecords, HTTP, the simulator) → readings of tree nodes: the vehicle's tree
 * names the node on the sample's channel; its scale and offset turn the raw value into its unit. A channel no
 * node maps is counted and dropped (there is nothing to judge it by); the tree editor shows the counts.
 */
export class SensorIngest {
  readonly unmapped = new Map<string, number>();

  constructor(
    private readonly nodes: NodeIndex,
    private readonly writer: ReadingWriter,
    private readonly latest: LatestPositions,
  ) {}

  readingsOf(batches: readonly SensorBatch[]): Reading[] {
    const readings: Reading[] = [];
    for (const batch of batches) {
      const place = this.latest.get(batch.vehicleId);
      for (const sample of batch.samples) {
        const reading = this.readingOf(batch.vehicleId, batch.time, sample);
        if (!reading) continue;
        if (place) {
          reading.lat = place.lat;
          reading.lon = place.lon;
        }
        readings.push(reading);
      }
    }
    return readings;
  }

  private readingOf(vehicleId: number, time: number, sample: ChannelSample): Reading | undefined {
    const node = this.nodes.nodeFor(vehicleId, sample.kind, sample.channel);
    if (!node) {
      const k = `${vehicleId}:${sample.kind}:${sample.channel}`;
      this.unmapped.set(k, (this.unmapped.get(k) ?? 0) + 1);
      if (this.unmapped.size > 10_000) this.unmapped.clear();
      return undefined;
    }
    const value = Number.isFinite(sample.raw) ? Math.round((sample.raw * node.scale + node.offset) * 1e6) / 1e6 : null;
    if (value === null && !sample.error) return undefined;
    // Whole seconds: EGTS times are seconds, so a resent record keys the same reading.
    return { vehicleId, nodeId: node.id, tm: Math.floor(time / 1000) * 1000, value, error: sample.error === true };
  }

  /** Resolves true once stored (the EGTS confirmation and the HTTP answer wait for it). */
  ingest(batches: readonly SensorBatch[]): Promise<boolean> {
    return this.writer.add(this.readingsOf(batches));
  }
}
