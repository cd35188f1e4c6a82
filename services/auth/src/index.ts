export { readAuthConfig, dataDir, type AuthConfig } from './config.js';
export { startAuthService, type AuthService, type AuthDeps } from './service.js';
export { KeyService, type IssuedKey } from './domain/key-service.js';
export { LmdbKeyStore } from './store/lmdb-key-store.js';
