import express, { type Express, type Request, type Response } from 'express';
import { InvalidParameterError, keyRecordView } from '@civicgraph/kit';
import type { AuthUpstream } from '../upstream/auth-client.js';
import { requireAdminToken } from './admin-token.js';
import { createKeyRequest, rotateKeyRequest } from './key-body.js';

/** Largest admin request body. */
const BODY_LIMIT = '16kb';
const KEY_ID = /^key_[0-9A-Za-z]{16}$/;

/**
 * The admin key API, `/admin/v1/keys`, for operators (never for API keys):
 *   POST   /admin/v1/keys                 create; the key is in this response only
 *   GET    /admin/v1/keys                 list, oldest first (`limit`, `starting_after`)
 *   GET    /admin/v1/keys/{id}            show
 *   POST   /admin/v1/keys/{id}/rotate     new secret; the old one works for `grace_seconds`
 *   POST   /admin/v1/keys/{id}/revoke     revoke; every gateway drops the key at once
 * The key service enforces the plan rules; this file only maps HTTP to it.
 */
export function adminKeyRoutes(app: Express, auth: AuthUpstream, adminToken: string | undefined): void {
  const guard = [requireAdminToken(adminToken), express.json({ limit: BODY_LIMIT })];
  app.post('/admin/v1/keys', guard, async (req: Request, res: Response) => {
    const issued = await auth.createKey(createKeyRequest(req.body));
    res.status(201).json({ key: issued.key, ...keyRecordView(issued.record!) });
  });
  app.get('/admin/v1/keys', guard, async (req: Request, res: Response) => {
    const limit = intParam(req, 'limit');
    const after = req.query['starting_after'];
    if (after !== undefined && typeof after !== 'string')
      throw new InvalidParameterError('starting_after', 'starting_after must be given once.');
    const page = await auth.listKeys({ limit: limit ?? 0, startingAfter: after ?? '' });
    res.json({ object: 'list', data: page.keys.map((r) => keyRecordView(r)), has_more: page.hasMore });
  });
  app.get('/admin/v1/keys/:id', guard, async (req: Request, res: Response) => {
    res.json(keyRecordView(await auth.getKey(keyId(req))));
  });
  app.post('/admin/v1/keys/:id/revoke', guard, async (req: Request, res: Response) => {
    res.json(keyRecordView(await auth.revokeKey(keyId(req))));
  });
  app.post('/admin/v1/keys/:id/rotate', guard, async (req: Request, res: Response) => {
    const issued = await auth.rotateKey(rotateKeyRequest(keyId(req), req.body));
    res.json({ key: issued.key, ...keyRecordView(issued.record!) });
  });
}

function keyId(req: Request): string {
  const raw: unknown = req.params['id'];
  const id = typeof raw === 'string' ? raw : '';
  if (!KEY_ID.test(id)) throw new InvalidParameterError('id', 'A key id looks like `key_` and 16 letters or digits.');
  return id;
}

function intParam(req: Request, name: string): number | undefined {
  const v = req.query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^\d{1,4}$/.test(v))
    throw new InvalidParameterError(name, `${name} must be a whole number.`);
  return Number(v);
}
