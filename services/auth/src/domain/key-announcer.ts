import { makeEvent, type EventBus } from '@civicgraph/kit';
import { Environment } from '@civicgraph/protos/civic/auth/v1/auth';
import type { KeyAnnouncer } from './key-service.js';

/** The subject word of each key environment (tests isolate their subjects with other words). */
export interface SubjectWords {
  test: string;
  live: string;
}

/**
 * Announces key revocations and rotations on `civic.<env>.key.<verb>`, the env being the
 * key's own, so every gateway drops the key from its principal cache at once.
 */
export function busAnnouncer(bus: EventBus, words: SubjectWords = { test: 'test', live: 'live' }): KeyAnnouncer {
  return async (change, record) => {
    const env = record.principal?.environment === Environment.ENVIRONMENT_LIVE ? words.live : words.test;
    await bus.publish(makeEvent({ env, kind: 'key', verb: change, slugs: [record.keyId], version: '' }));
  };
}
