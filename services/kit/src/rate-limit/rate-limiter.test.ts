import { describeRateLimiterContract } from '../testing/rate-limiter.contract.js';
import { MemoryRateLimiter } from './rate-limiter.js';

describeRateLimiterContract('memory', async () => new MemoryRateLimiter());
