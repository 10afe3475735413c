import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../app-error.ts';
import { route } from '../../contract-routes.ts';
import { adminOf, studentOf } from '../../plugins/auth.ts';
import { sendStoredObject } from '../../storage/serve-object.ts';
import { IDEMPOTENCY_HEADER } from '../../../shared/ledger.ts';
import { routes } from '../../../shared/contract/routes.ts';
import {
  adminItems,
  adminOrders,
  createItem,
  deleteItem,
  itemImage,
  myOrders,
  studentItems,
  updateItem,
} from './store-catalogue.service.ts';
import { cancelOrder, deliverOrder, deliverOrders, purchase, refuseOrder, type StoreDeps } from './store.service.ts';
import { contribute } from './store-goals.service.ts';

/** What a write knows besides its body; the service validates the key with the body. */
function writeContext(request: FastifyRequest) {
  return { idempotencyKey: request.headers[IDEMPOTENCY_HEADER], ip: request.ip };
}

/** A route whose request schemas only document it: its service validates the request and records a refusal. */
const documentedOnly = () => (value: unknown) => ({ value });

/** The Loja (issue 35): the pick list is registered by its own part (pick-list.routes.ts). */
export async function storeRoutes(app: FastifyInstance, { database, events, settings, storage }: AppDeps): Promise<void> {
  const deps: StoreDeps = { db: database.db, events, settings };
  const { store } = routes;
  const timeZone = async () => (await settings.get()).school.timeZone;

  route(app, store.items, async (request) => studentItems(database.db, studentOf(request), await timeZone()));

  route(app, store.itemImage, async (request, reply) => {
    const { objectKey, imageId, ...file } = await itemImage(database.db, request.params.id);
    const sent = await sendStoredObject(request, reply, storage, objectKey, {
      ...file,
      headers: {
        'Content-Security-Policy': "default-src 'none'; img-src 'self' data:; sandbox",
        'Cross-Origin-Resource-Policy': 'same-origin',
      },
    });
    if (!sent) {
      app.log.warn({ imageId, objectKey }, 'archive record without its file');
      throw new AppError('archive_image_not_found', { status: 404 });
    }
    return reply;
  });

  route(app, store.purchase, { validatorCompiler: documentedOnly }, async (request, reply) => {
    const result = await purchase(deps, studentOf(request), (request.params as { id?: unknown }).id, writeContext(request));
    return reply.status(result.status as 201).send(result.body);
  });

  route(app, store.contribute, { validatorCompiler: documentedOnly }, async (request, reply) => {
    const { id } = request.params as { id?: unknown };
    const result = await contribute(deps, studentOf(request), id, request.body, writeContext(request));
    return reply.status(result.status as 201).send(result.body);
  });

  route(app, store.myOrders, async (request) => myOrders(database.db, studentOf(request)));

  route(app, store.cancel, async (request, reply) => {
    const result = await cancelOrder(deps, studentOf(request), request.params.id, writeContext(request));
    return reply.status(result.status as 200).send(result.body);
  });

  route(app, store.adminItems, async () => adminItems(database.db));

  route(app, store.createItem, async (request, reply) =>
    reply.status(201).send(await createItem(deps, adminOf(request), request.body, { ip: request.ip })),
  );

  route(app, store.updateItem, async (request) => updateItem(deps, adminOf(request), request.params.id, request.body, { ip: request.ip }));

  route(app, store.deleteItem, async (request) => deleteItem(deps, adminOf(request), request.params.id, { ip: request.ip }));

  route(app, store.orders, async (request) => adminOrders(database.db, adminOf(request), request.query, await timeZone()));

  route(app, store.deliver, async (request) => deliverOrder(deps, adminOf(request), request.params.id, { ip: request.ip }));

  route(app, store.refuse, async (request, reply) => {
    const result = await refuseOrder(deps, adminOf(request), request.params.id, request.body, writeContext(request));
    return reply.status(result.status as 200).send(result.body);
  });

  route(app, store.deliverMany, async (request) => deliverOrders(deps, adminOf(request), request.body, { ip: request.ip }));
}
