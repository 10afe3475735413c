import { defineRoutes } from './route.ts';

/**
 * The Loja (issue 35, decision 026). A student buys what their turma may buy and contributes to turma goals; the staff
 * see the catalogue and the orders of the students they see (a teacher: their turmas) and deliver or refuse them; the
 * coordination writes the catalogue.
 */
export const store = defineRoutes(['store'], {
  items: {
    method: 'GET',
    path: '/api/store/items',
    access: 'student',
    description: 'O que este estudante pode comprar agora, com estoque e limite restantes; metas da turma com o arrecadado.',
    schemas: (s) => ({ response: { 200: s.z.array(s.studentStoreItem) } }),
  },
  itemImage: {
    method: 'GET',
    path: '/api/store/items/:id/image',
    access: 'signedIn',
    answer: 'file',
    description:
      'A imagem de um item (`imageId` não nulo) para quem está conectado, qualquer que seja o nível de acesso no Data-Base: ' +
      'a prévia em WebP, ou o original quando não há prévia.',
    schemas: (s) => ({ params: s.storeItemParams }),
  },
  purchase: {
    method: 'POST',
    path: '/api/store/items/:id/orders',
    access: 'student',
    schemas: (s) => ({ params: s.storeItemParams, headers: s.idempotencyHeaders, response: { 201: s.purchaseResult } }),
  },
  contribute: {
    method: 'POST',
    path: '/api/store/items/:id/contributions',
    access: 'student',
    schemas: (s) => ({
      params: s.storeItemParams,
      headers: s.idempotencyHeaders,
      body: s.contributionInput,
      response: { 201: s.contributionResult },
    }),
  },
  myOrders: {
    method: 'GET',
    path: '/api/me/orders',
    access: 'student',
    schemas: (s) => ({ response: { 200: s.z.array(s.myOrder) } }),
  },
  cancel: {
    method: 'POST',
    path: '/api/me/orders/:id/cancel',
    access: 'student',
    schemas: (s) => ({ params: s.storeOrderParams, headers: s.idempotencyHeaders, response: { 200: s.cancelResult } }),
  },
  adminItems: {
    method: 'GET',
    path: '/api/admin/store/items',
    access: 'staffArea',
    schemas: (s) => ({ response: { 200: s.z.array(s.adminStoreItem) } }),
  },
  createItem: {
    method: 'POST',
    path: '/api/admin/store/items',
    access: 'manageSchool',
    schemas: (s) => ({ body: s.storeItemInput, response: { 201: s.adminStoreItem } }),
  },
  updateItem: {
    method: 'PATCH',
    path: '/api/admin/store/items/:id',
    access: 'manageSchool',
    description: 'Campos enviados mudam; `position` reordena o catálogo.',
    schemas: (s) => ({ params: s.storeItemParams, body: s.storeItemUpdate, response: { 200: s.adminStoreItem } }),
  },
  deleteItem: {
    method: 'DELETE',
    path: '/api/admin/store/items/:id',
    access: 'manageSchool',
    description: 'Um item com pedidos é apenas desativado (a resposta diz qual dos dois aconteceu).',
    schemas: (s) => ({
      params: s.storeItemParams,
      response: { 200: s.z.object({ deleted: s.z.boolean(), deactivated: s.z.boolean(), message: s.z.string() }) },
    }),
  },
  orders: {
    method: 'GET',
    path: '/api/admin/store/orders',
    access: 'staffArea',
    schemas: (s) => ({ query: s.adminOrdersQuery, response: { 200: s.adminOrdersPage } }),
  },
  deliver: {
    method: 'POST',
    path: '/api/admin/store/orders/:id/deliver',
    access: 'staffArea',
    schemas: (s) => ({ params: s.storeOrderParams, response: { 200: s.orderDecisionResult } }),
  },
  refuse: {
    method: 'POST',
    path: '/api/admin/store/orders/:id/refuse',
    access: 'staffArea',
    schemas: (s) => ({
      params: s.storeOrderParams,
      headers: s.idempotencyHeaders,
      body: s.refuseOrderInput,
      response: { 200: s.orderDecisionResult },
    }),
  },
  deliverMany: {
    method: 'POST',
    path: '/api/admin/store/orders/deliver',
    access: 'staffArea',
    schemas: (s) => ({ body: s.deliverOrdersInput, response: { 200: s.deliverOrdersResult } }),
  },
  pickList: {
    method: 'GET',
    path: '/api/admin/store/orders/pick-list.pdf',
    access: 'staffArea',
    answer: 'file',
    produces: ['application/pdf'],
    description: "A 'Lista de entrega' de uma turma: os pedidos pendentes por estudante.",
    schemas: (s) => ({ query: s.pickListQuery, response: { 200: s.reportFile } }),
  },
});
