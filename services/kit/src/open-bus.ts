import { MemoryEventBus } from './bus/memory-bus.js';
import { NatsEventBus } from './bus/nats-bus.js';
import type { EventBus } from './bus/event-bus.js';
import type { Logger } from './log.js';

/**
 * The EventBus a process uses: NATS JetStream when `natsUrl` is set, else the in-process
 * bus (only useful when every service shares the process, as under `civicgraph up`).
 */
export async function openBus(natsUrl: string | undefined, name: string, log: Logger): Promise<EventBus> {
  if (natsUrl === undefined) {
    log.info('event bus: in-process');
    return new MemoryEventBus();
  }
  const bus = await NatsEventBus.connect({ url: natsUrl, name, logger: log });
  log.info({ url: natsUrl }, 'event bus: NATS JetStream');
  return bus;
}
