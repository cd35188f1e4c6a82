import { Event } from '@civicgraph/protos/civic/events/v1/events';
import type { CivicEvent } from './catalogue.js';
import { parseEvent } from './parse-event.js';

/**
 * The envelope on the wire (NATS message data, the local stream's records): protobuf, as
 * civic.events.v1.Event encodes it. Events written before were JSON text; both are read.
 */
export function encodeEvent(event: CivicEvent): Uint8Array {
  return Event.encode(event).finish();
}

/**
 * A `{` cannot open a protobuf Event: as a tag it would be field 15 with the deprecated
 * group wire type, which the envelope never writes (an event always opens with its id,
 * field 1). So a leading brace marks the JSON text of an older release.
 */
const OPEN_BRACE = 0x7b;

/** The event in `bytes`, protobuf or legacy JSON; throws naming the bad field when it is none. */
export function decodeEvent(bytes: Uint8Array): CivicEvent {
  if (bytes[0] === OPEN_BRACE) return parseEvent(JSON.parse(new TextDecoder().decode(bytes)));
  return parseEvent(Event.decode(bytes));
}
