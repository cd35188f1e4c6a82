import { describeGraphStoreConformance } from '../conformance.js';
import { MemoryGraphStore } from './memory-graph-store.js';

describeGraphStoreConformance('MemoryGraphStore', async () => new MemoryGraphStore());
