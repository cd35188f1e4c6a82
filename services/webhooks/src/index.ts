export { newSigningSecret, signatureHeaders, SECRET_PREFIX, type SignatureHeaders } from './signing.js';
export { retryDelay, nominalSchedule, MAX_ATTEMPTS, RETRY_DELAYS_MS, JITTER } from './retry-schedule.js';
export { checkTarget, addressAllowed, MAX_URL_LENGTH, type CheckedTarget, type Resolver } from './target-url.js';
export { attempt, RESPONSE_EXCERPT, RESPONSE_READ_LIMIT, type AttemptResult, type AttemptOptions } from './deliver.js';
export type { AttemptRecord, Delivery, DeliveryLog, DeliveryStatus } from './delivery/delivery.js';
export { LmdbDeliveryLog } from './delivery/lmdb-delivery-log.js';
export { Deliverer, type DelivererOptions, type Endpoint, type EndpointDirectory } from './delivery/deliverer.js';
export { payloadFor, type WebhookPayload } from './payload.js';
export {
  endpointFields,
  endpointPatch,
  MAX_EVENT_TYPES,
  type EndpointFields,
  type EndpointPatch,
} from './endpoints/endpoint-body.js';
export { LmdbEndpointStore, type EndpointRecord } from './endpoints/endpoint-store.js';
export { Dispatcher, deliveryId, type DispatcherOptions, type Subscriptions } from './dispatcher.js';
export { defaultWebhooksConfig, readWebhooksConfig, webhooksSettings, type WebhooksConfig } from './config.js';
export { startWebhooksService, type WebhooksService, type WebhooksDeps } from './service.js';
export { EndpointService, MAX_ENDPOINTS_PER_KEY } from './endpoints/endpoint-service.js';
