export { authSettings, defaultAuthConfig, readAuthConfig, type AuthConfig } from './config.js';
export { startAuthService, type AuthService, type AuthDeps } from './service.js';
export { KeyService, type IssuedKey } from './domain/key-service.js';
export { LmdbKeyStore } from './store/lmdb-key-store.js';
export { openKeyService, type OpenedKeys } from './domain/open-key-service.js';
export { KeyHasher } from './domain/key-hasher.js';
