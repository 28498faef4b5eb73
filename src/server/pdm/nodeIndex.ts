import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../db/types';
import { PeriodicJob } from '../jobs/periodicJob';
import type { ChannelKind, NodeRange } from '../../shared/pdm/model';

/** A sensor node as ingestion needs it: where its channel's readings go and how they are judged. */
export interface SensorNode extends NodeRange {
  id: number;
  treeId: number;
  channelKind: ChannelKind;
  channel: number;
  scale: number;
  offset: number;
  silenceS: number;
}

const key = (kind: ChannelKind, channel: number) => `${kind}:${channel}`;

/**
 * The channel → node map of every vehicle, in memory (ingestion runs per reading): a vehicle's tree, the tree's
 * sensors by channel. Reloaded after every tree edit in this process and every `refreshMs` (edits made by
 * another server process).
 */
export class NodeIndex {
  private vehicleTree = new Map<number, number>();
  private treeChannels = new Map<number, Map<string, SensorNode>>();
  private nodes = new Map<number, SensorNode>();
  private readonly job: PeriodicJob;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly db: Queryable,
    log: FastifyBaseLogger,
  ) {
    this.job = new PeriodicJob(() => this.refresh(), log, 'PDM node index refresh failed');
  }

  refresh(): Promise<void> {
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async load(): Promise<void> {
    const [assignments, sensors] = await Promise.all([
      this.db.query<{ vehicle_id: number; tree_id: number }>('select vehicle_id, tree_id from pdm.tree_vehicle'),
      this.db.query<
        {
          id: number;
          tree_id: number;
          channel_kind: ChannelKind;
          channel: number;
          scale: number;
          offset: number;
          silence_s: number;
        } & NodeRange
      >(
        `select id, tree_id, channel_kind, channel, scale, "offset", silence_s, normal_min, normal_max, fault_min, fault_max
           from pdm.node where channel_kind is not null`,
      ),
    ]);
    const treeChannels = new Map<number, Map<string, SensorNode>>();
    const nodes = new Map<number, SensorNode>();
    for (const row of sensors) {
      const node: SensorNode = {
        id: row.id,
        treeId: row.tree_id,
        channelKind: row.channel_kind,
        channel: row.channel,
        scale: row.scale,
        offset: row.offset,
        silenceS: row.silence_s,
        normal_min: row.normal_min,
        normal_max: row.normal_max,
        fault_min: row.fault_min,
        fault_max: row.fault_max,
      };
      nodes.set(node.id, node);
      let channels = treeChannels.get(node.treeId);
      if (!channels) treeChannels.set(node.treeId, (channels = new Map()));
      channels.set(key(node.channelKind, node.channel), node);
    }
    this.vehicleTree = new Map(assignments.map((a) => [a.vehicle_id, a.tree_id]));
    this.treeChannels = treeChannels;
    this.nodes = nodes;
  }

  start(refreshMs: number): void {
    this.job.start(refreshMs);
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** The node a vehicle's channel maps to (undefined: no tree, or no sensor on that channel). */
  nodeFor(vehicleId: number, kind: ChannelKind, channel: number): SensorNode | undefined {
    const tree = this.vehicleTree.get(vehicleId);
    return tree === undefined ? undefined : this.treeChannels.get(tree)?.get(key(kind, channel));
  }

  node(id: number): SensorNode | undefined {
    return this.nodes.get(id);
  }

  treeOf(vehicleId: number): number | undefined {
    return this.vehicleTree.get(vehicleId);
  }

  /** Vehicles with a tree and the sensors of each (the simulator's fleet). */
  assigned(): { vehicleId: number; sensors: SensorNode[] }[] {
    return [...this.vehicleTree].map(([vehicleId, tree]) => ({ vehicleId, sensors: [...(this.treeChannels.get(tree)?.values() ?? [])] }));
  }
}
