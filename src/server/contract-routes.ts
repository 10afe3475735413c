import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifySchema,
  FastifySchemaCompiler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Route, RouteSchemas, SchemaOf } from '../shared/contract/route.ts';
import { ALL_ROUTES } from '../shared/contract/routes.ts';
import type { DeclaredRoute } from './plugins/auth.ts';
import { ROUTE_BUDGETS, type RouteBudget } from './plugins/route-budgets.ts';
import { sendRevalidated } from './revalidate.ts';

/** A route's own rate-limit budget (route-budgets.ts), as the limiter reads it from the route's config. */
function budgetOf(definition: Route): { rateLimit?: RouteBudget } {
  const budget = ROUTE_BUDGETS.get(definition);
  return budget ? { rateLimit: budget } : {};
}

/** Where app.ts registers the API; the contract's paths include it. */
export const API_PREFIX = '/api';

const loadedSchemas = new Map<Route, RouteSchemas>();

/** Loads the schemas of every route of the contract (decision 016); buildApp waits for it before it registers a route. */
export async function loadRouteSchemas(): Promise<void> {
  await Promise.all(ALL_ROUTES.map(async (route) => loadedSchemas.set(route, await route.schemas())));
}

/** Fastify's schema of a route of the contract, which types its handler's request and answer. */
type FastifySchemaOf<R> = {
  params: SchemaOf<R, 'params'>;
  querystring: SchemaOf<R, 'query'>;
  headers: SchemaOf<R, 'headers'>;
  body: SchemaOf<R, 'body'>;
  response: SchemaOf<R, 'response'>;
};

export type RouteHandler<R extends Route> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  FastifySchemaOf<R>,
  ZodTypeProvider
>;

/** What a route adds on the server only: a validator of its own (its rate-limit budget is in route-budgets.ts). */
export type ServerRouteOptions = {
  validatorCompiler?: FastifySchemaCompiler<FastifySchema>;
  /** Posted to from other sites (see FastifyContextConfig.crossSite). */
  crossSite?: true;
};

/**
 * Registers a route of the contract under API_PREFIX: its method, path, access, schemas and description come from its
 * definition, the handler (and any server-only option) from the module. Call it in a scope registered under API_PREFIX.
 */
export function route<R extends Route>(
  app: FastifyInstance,
  definition: R,
  ...rest: [RouteHandler<R>] | [ServerRouteOptions, RouteHandler<R>]
): void {
  const [options, handler] = rest.length === 1 ? [{}, rest[0]] : rest;
  if (options.crossSite && definition.access !== 'public')
    throw new Error(`${definition.id}: só uma rota pública pode vir de outros sites`);
  const schemas = loadedSchemas.get(definition);
  if (!schemas) throw new Error(`${definition.id}: os schemas do contrato não foram carregados (loadRouteSchemas)`);
  const { params, query, headers, body, response } = schemas;
  const schema = {
    ...definition.docs,
    ...(definition.upload ? { consumes: ['multipart/form-data'] } : {}),
    ...(params ? { params } : {}),
    ...(query ? { querystring: query } : {}),
    ...(headers ? { headers } : {}),
    ...(body ? { body } : {}),
    ...(response ? { response } : {}),
  };
  const answer = handler as RouteOptions['handler'];
  app.route({
    method: definition.method,
    url: definition.path.slice(API_PREFIX.length),
    config: { access: definition.access, ...budgetOf(definition), ...(options.crossSite ? { crossSite: true } : {}) },
    schema,
    ...(options.validatorCompiler ? { validatorCompiler: options.validatorCompiler } : {}),
    // A read with `revalidate` returns its answer, which goes out with its ETag (or as a 304).
    handler: definition.revalidate
      ? async function (request, reply) {
          return sendRevalidated(request, reply, await answer.call(this, request, reply));
        }
      : answer,
  });
}

/** "METHOD /api/path/:param" of every API route registered, HEAD twins left out. */
function apiRoutesOf(declared: readonly DeclaredRoute[]): string[] {
  return declared
    .filter(({ method, url }) => method !== 'HEAD' && url.startsWith(`${API_PREFIX}/`))
    .map(({ method, url }) => `${method} ${url}`);
}

/** What differs between the routes registered and the contract's ("METHOD /api/path/:param" each). */
export function contractDrift(registered: readonly string[], contract: readonly string[] = ALL_ROUTES.map((route) => route.id)) {
  return {
    withoutDefinition: registered.filter((id) => !contract.includes(id)),
    withoutRoute: contract.filter((id) => !registered.includes(id)),
  };
}

/** Stops the start-up when an API route has no definition in the contract, or a definition no route. */
export function checkContract(declared: readonly DeclaredRoute[]): void {
  const drift = contractDrift(apiRoutesOf(declared));
  const problems = [
    drift.withoutDefinition.length > 0
      ? `rotas da API fora do contrato (src/shared/contract): ${drift.withoutDefinition.join(', ')}`
      : null,
    drift.withoutRoute.length > 0 ? `rotas do contrato sem registro no servidor: ${drift.withoutRoute.join(', ')}` : null,
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`Contrato da API divergente: ${problems.join('; ')}`);
}
