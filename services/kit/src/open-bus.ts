import { LocalStreamBus } from './bus/local-stream-bus.js';
import { MemoryEventBus } from './bus/memory-bus.js';
import { NatsEventBus } from './bus/nats-bus.js';
import type { EventBus } from './bus/event-bus.js';
import type { Logger } from './log.js';

/**
 * The EventBus a process uses: NATS JetStream when `natsUrl` is set; else, when every
 * service shares the process (`civicgraph up`), the stream kept on disk at `localStream`,
 * so no event committed by a service is lost to a crash; else the in-process bus, whose
 * events live only in memory.
 */
export async function openBus(
  natsUrl: string | undefined,
  name: string,
  log: Logger,
  localStream?: string,
): Promise<EventBus> {
  if (natsUrl !== undefined) {
    const bus = await NatsEventBus.connect({ url: natsUrl, name, logger: log });
    log.info({ url: natsUrl }, 'event bus: NATS JetStream');
    return bus;
  }
  if (localStream !== undefined) {
    log.info({ path: localStream }, 'event bus: in-process, kept on disk');
    return LocalStreamBus.open({ path: localStream, logger: log });
  }
  log.info('event bus: in-process');
  return new MemoryEventBus();
}
