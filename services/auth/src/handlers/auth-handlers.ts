import { type AuthServiceServer } from '@civicgraph/protos/civic/auth/v1/auth';
import { unary, type Logger } from '@civicgraph/kit';
import type { KeyService } from '../domain/key-service.js';

/** gRPC handlers: decode, call the KeyService, encode; errors are mapped by `unary`. Secrets are never logged. */
export function authHandlers(keys: KeyService, log: Logger): AuthServiceServer {
  return {
    authenticate: unary(log, 'Authenticate', (req) => keys.authenticate(req.key)),
    createKey: unary(log, 'CreateKey', async (req) => {
      const issued = await keys.create(req);
      log.info({ keyId: issued.record.keyId, plan: issued.record.principal?.plan }, 'key created');
      return issued;
    }),
    revokeKey: unary(log, 'RevokeKey', async (req) => {
      const record = await keys.revoke(req.keyId);
      log.info({ keyId: record.keyId }, 'key revoked');
      return record;
    }),
    rotateKey: unary(log, 'RotateKey', async (req) => {
      const issued = await keys.rotate(req);
      log.info({ keyId: issued.record.keyId, previousExpiresAt: issued.record.previousKeyExpiresAt }, 'key rotated');
      return issued;
    }),
    getKey: unary(log, 'GetKey', (req) => keys.get(req.keyId)),
    listKeys: unary(log, 'ListKeys', (req) => keys.page(req)),
  };
}
