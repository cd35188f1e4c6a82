export {
  defaultGatewayConfig,
  gatewaySettings,
  readGatewayConfig,
  type GatewayConfig,
  type GatewayUpstreams,
} from './config.js';
export { startGateway, type Gateway, type GatewayDeps } from './gateway.js';
export { connectGraph, type GraphUpstream } from './upstream/graph-client.js';
export { BallotMemo } from './upstream/ballot-memo.js';
export { KEY_LOOKUPS_PER_MINUTE } from './http/edge.js';
