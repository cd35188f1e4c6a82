import { dirname, join } from 'node:path';
import { secretFromFile, type EventBus } from '@civicgraph/kit';
import type { AuthConfig } from '../config.js';
import { LmdbKeyStore } from '../store/lmdb-key-store.js';
import { busAnnouncer, type SubjectWords } from './key-announcer.js';
import { KeyHasher } from './key-hasher.js';
import { KeyService } from './key-service.js';

/** Where a deployment's keys are: the store, and the pepper or where it is kept (default beside the store). */
export type KeyStoreConfig = Pick<AuthConfig, 'storePath'> & Partial<Pick<AuthConfig, 'pepper' | 'pepperPath'>>;

/** A KeyService on the deployment's key store and pepper; `close` releases the store. */
export interface OpenedKeys {
  keys: KeyService;
  close(): Promise<void>;
}

/**
 * Opens the key store the way every process of a deployment must (the auth service and the
 * `civicgraph keys` CLI): same store, same pepper. With a bus, revocations and rotations
 * are announced on it.
 */
export function openKeyService(config: KeyStoreConfig, bus?: EventBus, words?: SubjectWords): OpenedKeys {
  const store = LmdbKeyStore.open({ path: config.storePath });
  const hasher = new KeyHasher(
    secretFromFile(config.pepperPath ?? join(dirname(config.storePath), 'auth-pepper.secret'), config.pepper),
  );
  const keys = new KeyService({ store, hasher, ...(bus === undefined ? {} : { announce: busAnnouncer(bus, words) }) });
  return { keys, close: () => store.close() };
}
