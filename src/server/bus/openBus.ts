import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import { Bus, MemoryNetwork } from './bus';
import { RedisTransport } from './redisTransport';

/** The bus over Redis when BUS_URL is set, else the single process's own (nothing leaves it). */
export function openBus(config: Pick<Config, 'busUrl' | 'busPrefix'>, log: FastifyBaseLogger): Bus {
  const busLog = log.child({ area: 'bus' });
  if (config.busUrl) return new Bus(new RedisTransport(config.busUrl, busLog), config.busPrefix, busLog);
  return new Bus(new MemoryNetwork().join(false), config.busPrefix, busLog);
}
