export * from './event-bus.js';
export * from './catalogue.js';
export * from './parse-event.js';
export * from './event-objects.js';
export { encodeEvent, decodeEvent } from './wire.js';
export { LocalStreamBus, type LocalStreamBusOptions } from './local-stream-bus.js';
export { MemoryEventBus, type MemoryEventBusOptions } from './memory-bus.js';
export {
  NatsEventBus,
  NatsPublishError,
  NatsUnavailableError,
  probeNats,
  type NatsEventBusOptions,
} from './nats-bus.js';
export * from './require-service.js';
