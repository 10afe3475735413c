import type { z } from 'zod';
import { PERMISSIONS } from '../permissions.ts';

/**
 * What every /api route is, written once (decision 016): its method, path, access and description, and the zod schemas
 * of src/shared it reads and answers with. The server registers each route from its definition; the web calls it through
 * the same definition, its answer typed from the response schema. The schemas are picked from schemas.ts, which loads
 * only when asked for (`route.schemas()`, the server): a web page needs a route's method and path alone, and zod stays
 * out of the pages that validate no form.
 */

/** Every schema a route may pick (schemas.ts), as a type: the module itself loads on demand. */
type SchemaModule = typeof import('./schemas.ts');
let schemaModule: Promise<SchemaModule> | undefined;
const loadSchemaModule = () => (schemaModule ??= import('./schemas.ts'));

/**
 * Who may call a route: anyone, anyone signed in, a student, a guardian (a responsável, decision 037), or a member of the
 * staff with the named permission (src/shared/permissions.ts). Checked by the server against the route the request reached.
 */
export const ACCESS_LEVELS = ['public', 'signedIn', 'student', 'guardian', ...PERMISSIONS] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A route's zod schemas as Fastify takes them: what it validates, and what it answers by status. */
export type RouteSchemas = {
  params?: z.ZodType;
  query?: z.ZodType;
  headers?: z.ZodType;
  body?: z.ZodType;
  response?: { [status: number]: z.ZodType };
};

/**
 * How the answer travels: JSON (read with the web's `call`), a file the browser downloads or shows (its address from
 * `urlOf`), a stream of Server-Sent Events, or a redirect the browser follows (a page opens the route's `urlOf`).
 */
export type AnswerKind = 'json' | 'file' | 'stream' | 'redirect';

/** The OpenAPI description of a route besides its schemas. */
export type RouteDocs = { tags: readonly string[]; summary?: string; description?: string; produces?: readonly string[]; hide?: true };

/** A route as a domain file writes it; `schemas` picks its schemas from schemas.ts. */
type RouteSpec = {
  method: Method;
  path: `/api/${string}`;
  access: Access;
  answer?: AnswerKind;
  /** The body is a multipart form of files (FormData), read by the route itself rather than by a schema. */
  upload?: true;
  summary?: string;
  description?: string;
  produces?: readonly string[];
  /** Left out of the OpenAPI document. */
  hide?: true;
  /**
   * A read every screen repeats: the answer carries a weak ETag of its content and `Cache-Control: private, no-cache`,
   * and a request whose If-None-Match names it is answered 304 without a body (the web's client sends it).
   */
  revalidate?: true;
  schemas?: (schemas: SchemaModule) => RouteSchemas;
};

/** What the OpenAPI document says of a route with `revalidate`. */
const REVALIDATE_DESCRIPTION = 'A resposta traz um ETag fraco do seu conteúdo; com If-None-Match igual a ele, a resposta é 304 sem corpo.';

export type Route<Schemas extends RouteSchemas = RouteSchemas> = {
  /** Method and path, e.g. 'GET /api/ranking': unique, and the first part of every query key of the route. */
  readonly id: string;
  readonly method: Method;
  readonly path: `/api/${string}`;
  readonly access: Access;
  readonly answer: AnswerKind;
  readonly upload: boolean;
  /** Answered with an ETag, and 304 to a matching If-None-Match (RouteSpec.revalidate). */
  readonly revalidate: boolean;
  readonly docs: RouteDocs;
  /** The route's zod schemas (loaded on first use). */
  readonly schemas: () => Promise<Schemas>;
};

/** An object with nothing in it. */
type Empty = Record<never, never>;

type SchemasOfSpec<Spec> = Spec extends { schemas: (schemas: SchemaModule) => infer Schemas extends RouteSchemas } ? Schemas : Empty;

/** A written route as the contract gives it: its method, path, answer kind and schemas kept as their literal types. */
export type RouteOf<Spec extends RouteSpec> = Route<SchemasOfSpec<Spec>> & {
  readonly method: Spec['method'];
  readonly path: Spec['path'];
  readonly answer: Spec extends { answer: infer Answer extends AnswerKind } ? Answer : 'json';
  readonly upload: Spec extends { upload: true } ? true : false;
};

/** The routes of one domain, with the domain's tags in the OpenAPI document. */
export function defineRoutes<const Specs extends Record<string, RouteSpec>>(
  tags: readonly string[],
  specs: Specs,
): { readonly [Name in keyof Specs]: RouteOf<Specs[Name]> } {
  const routes: Record<string, Route> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const { method, path, access, answer = 'json', upload = false, revalidate = false, summary, produces, hide, schemas } = spec;
    const description = revalidate ? [spec.description, REVALIDATE_DESCRIPTION].filter(Boolean).join(' ') : spec.description;
    routes[name] = {
      id: `${method} ${path}`,
      method,
      path,
      access,
      answer,
      upload,
      revalidate,
      docs: {
        tags,
        ...(summary ? { summary } : {}),
        ...(description ? { description } : {}),
        ...(produces ? { produces } : {}),
        ...(hide ? { hide } : {}),
      },
      schemas: async () => schemas?.(await loadSchemaModule()) ?? {},
    };
  }
  return routes as { readonly [Name in keyof Specs]: RouteOf<Specs[Name]> };
}

type SchemasOf<R> = R extends Route<infer Schemas> ? Schemas : never;
/** One of a route's schemas; undefined where the route has none. */
export type SchemaOf<R, Name extends keyof RouteSchemas> =
  SchemasOf<R> extends infer Schemas ? (Name extends keyof Schemas ? Schemas[Name] : undefined) : never;
type InputOf<Schema> = Schema extends z.ZodType ? z.input<Schema> : undefined;
type OutputOf<Schema> = Schema extends z.ZodType ? z.output<Schema> : undefined;

export type ParamsOf<R> = InputOf<SchemaOf<R, 'params'>>;
export type QueryOf<R> = InputOf<SchemaOf<R, 'query'>>;
/** A JSON body as its schema reads it; an upload's is the form. */
export type BodyOf<R> = R extends { upload: true } ? FormData : InputOf<SchemaOf<R, 'body'>>;

type SuccessStatus = 200 | 201 | 202 | 204;
type Responses<R> = NonNullable<SchemaOf<R, 'response'>>;
/** What a call of the route resolves with: the output of its success responses' schemas. */
export type AnswerOf<R> = R extends Route
  ? { [Status in keyof Responses<R>]: Status extends SuccessStatus ? OutputOf<Responses<R>[Status]> : never }[keyof Responses<R>]
  : never;

/** A part that is sent only when the route has it, and may be left out when all its fields are optional. */
type Part<Name extends string, Value> = [Value] extends [undefined]
  ? Empty
  : undefined extends Value
    ? { [K in Name]?: Value }
    : Empty extends Value
      ? { [K in Name]?: Value }
      : { [K in Name]: Value };

/** The params and query of a call: what names one answer of the route (and its query key). */
export type AddressOf<R> = Part<'params', ParamsOf<R>> & Part<'query', QueryOf<R>>;
/** Everything a call sends: params, query and body, as the route's schemas read them. */
export type RequestOf<R> = AddressOf<R> & Part<'body', BodyOf<R>>;

/** The argument list of a function taking `Parts` of route R: optional when nothing in it is required. */
export type ArgsOf<Parts> = Empty extends Parts ? [parts?: Parts] : [parts: Parts];

type QueryValue = string | number | boolean | null | undefined;

/**
 * The address of one answer of the route: its path with the params filled in (each encoded), then the query, where a
 * list is sent as the name repeated and an empty, null or undefined value is left out.
 */
export function urlOf<R extends Route>(route: R, ...[parts]: ArgsOf<AddressOf<R>>): string {
  const { params, query } = (parts ?? {}) as {
    params?: Record<string, string | number>;
    query?: Record<string, QueryValue | readonly QueryValue[]>;
  };
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${route.id}: falta o parâmetro ${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null && item !== '') search.append(name, String(item));
    }
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
