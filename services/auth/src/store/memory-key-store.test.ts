import { describeKeyStoreContract } from './key-store.contract.js';
import { MemoryKeyStore } from './memory-key-store.js';

describeKeyStoreContract('MemoryKeyStore', async () => new MemoryKeyStore());
