export { readGatewayConfig, type GatewayConfig } from './config.js';
export { startGateway, type Gateway, type GatewayDeps } from './gateway.js';
