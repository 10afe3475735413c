import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { LIVE_TICK_MS } from '../shared/live-events.ts';
import { SECRET_MASK } from '../shared/system.ts';
import { SIGN_IN_PROVIDERS, type SignInProvider } from '../shared/school-accounts.ts';
import { urlOf } from '../shared/contract/route.ts';
import { routes } from '../shared/contract/routes.ts';
import type { S3Settings } from './storage/s3-storage.ts';

const flag = z.enum(['on', 'off', 'true', 'false', '1', '0']).transform((value) => value === 'on' || value === 'true' || value === '1');

/**
 * The API limiter's budgets. Signed-in users count one by one, so a school behind one
 * address is not one budget; the per-address budget is for requests without a session,
 * sized for 300 students opening the sign-in page and signing in within one minute
 * (about two requests each) with room for typing mistakes.
 */
export const API_RATE_LIMIT_DEFAULTS = { signedIn: 600, anonymous: 1200, windowMs: 60_000 } as const;

/**
 * PostgreSQL connections a server keeps at most: two per core of this machine, at least four
 * (decision 006). More connections than PostgreSQL has cores to run them only take turns on
 * those cores: with 20, the 8 clients of bench:bank got about 10% fewer transfers through than
 * with 4, on two cores; a request beyond the pool waits in the server for the next free one (at most
 * 10 s: then it answers 503, see openPostgres).
 */
export function defaultPoolSize(cores = os.availableParallelism()): number {
  return Math.max(4, 2 * cores);
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(defaultPoolSize()),
  DATA_DIR: z.string().default('./data'),
  DEMO: flag.optional(),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  ADMIN_NAME: z.string().min(1).optional(),
  /** The address users open, e.g. https://meritus.escola.br; decides Secure cookies and HSTS. */
  PUBLIC_URL: z.string().url().optional(),
  /** Extra origins allowed to send state-changing requests (comma-separated), e.g. Vite's dev server. */
  ALLOWED_ORIGINS: z.string().optional(),
  /** API requests per window per signed-in user; 0 turns the API limiter off (benchmarks). */
  API_RATE_LIMIT: z.coerce.number().int().min(0).default(API_RATE_LIMIT_DEFAULTS.signedIn),
  /** API requests per window per address without a session (sign-in pages, sign-ins). */
  API_RATE_LIMIT_ANONYMOUS: z.coerce.number().int().min(1).default(API_RATE_LIMIT_DEFAULTS.anonymous),
  API_RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(API_RATE_LIMIT_DEFAULTS.windowMs),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: flag.default(false),
  /** How long a resolved session is reused before the database is asked again; 0 asks on every request. */
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /** How often coalesced live events (the ranking, the staff's figures, tags) go out at most (decision 019). */
  LIVE_TICK_MS: z.coerce.number().int().min(500).max(60_000).default(LIVE_TICK_MS),
  /** Bearer token a monitoring system sends to GET /metrics; unset, /metrics answers 404. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** How long a stopping server (SIGTERM, SIGINT) waits for the requests in flight before it exits anyway. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(10_000),
  /** Set, files (image archive, student photos) go to this S3-compatible bucket instead of DATA_DIR/uploads. */
  S3_BUCKET: z.string().min(3).optional(),
  /** The S3-compatible service's address (MinIO, Garage…); unset, AWS S3 of S3_REGION. */
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Bucket in the path (http://host/bucket/key) instead of the host name: most self-hosted services need it. */
  S3_FORCE_PATH_STYLE: flag.default(false),
  /** Sign-in with Google (OpenID Connect): on when its client id is set; see signInProvidersOf. */
  OIDC_GOOGLE_ISSUER: z.string().url().default('https://accounts.google.com'),
  OIDC_GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  OIDC_GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_GOOGLE_EMAIL_DOMAIN: z.string().min(1).optional(),
  /** Sign-in with Microsoft: the issuer is the school's tenant, https://login.microsoftonline.com/<tenant id>/v2.0. */
  OIDC_MICROSOFT_ISSUER: z.string().url().optional(),
  OIDC_MICROSOFT_CLIENT_ID: z.string().min(1).optional(),
  OIDC_MICROSOFT_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_MICROSOFT_EMAIL_DOMAIN: z.string().min(1).optional(),
  /** Email (decision 038): on when set, e.g. smtps://usuario:senha@smtp.escola.br:465 or smtp://host:587 (STARTTLS). */
  SMTP_URL: z
    .string()
    .url()
    .refine((value) => /^smtps?:$/.test(new URL(value).protocol), 'use smtp:// ou smtps://')
    .optional(),
  /** The sender of every message, e.g. "Escola Exemplo <nao-responda@escola.br>"; required with SMTP_URL. */
  SMTP_FROM: z.string().min(3).optional(),
});

type EnvName = keyof typeof envSchema.shape;

/**
 * What the Configurações tab says of each variable (the README's table), in pt-BR. The
 * secrets are shown only as set or unset.
 */
export const CONFIG_DESCRIPTIONS: Record<EnvName, { description: string; secret?: true }> = {
  NODE_ENV: { description: 'Modo de execução (production envia HSTS; development e test para desenvolvimento).' },
  PORT: { description: 'Porta em que o servidor escuta.' },
  HOST: { description: 'Endereço em que o servidor escuta (0.0.0.0 aceita outras máquinas).' },
  DATABASE_URL: { description: 'Conexão do PostgreSQL; sem ela, o banco embutido (PGlite) em DATA_DIR.', secret: true },
  DATABASE_POOL_SIZE: {
    description: 'Máximo de conexões abertas ao PostgreSQL (DATABASE_URL); padrão: 2 por núcleo desta máquina, no mínimo 4.',
  },
  DATA_DIR: { description: 'Pasta do banco embutido e dos arquivos enviados (uploads).' },
  DEMO: { description: 'Cria a escola de demonstração num banco vazio e mostra as credenciais de demonstração no login.' },
  ADMIN_EMAIL: { description: 'Email do primeiro administrador de um banco de produção vazio.' },
  ADMIN_PASSWORD: { description: 'Senha do primeiro administrador (mínimo de 8 caracteres).', secret: true },
  ADMIN_NAME: { description: 'Nome do primeiro administrador.' },
  PUBLIC_URL: { description: 'Endereço que os usuários abrem; com https:// ativa cookies Secure e HSTS.' },
  ALLOWED_ORIGINS: { description: 'Outras origens (separadas por vírgula) que podem enviar requisições que alteram dados.' },
  API_RATE_LIMIT: { description: 'Requisições à API por janela por usuário conectado; 0 desliga o limitador.' },
  API_RATE_LIMIT_ANONYMOUS: { description: 'Requisições à API por janela por endereço sem sessão (login).' },
  API_RATE_LIMIT_WINDOW_MS: { description: 'Janela dos limites da API, em milissegundos.' },
  LOG_LEVEL: { description: 'Nível dos logs do servidor (fatal … trace, ou silent).' },
  TRUST_PROXY: { description: 'Ligado atrás de um proxy reverso, para os limites verem o endereço do cliente.' },
  SESSION_CACHE_MS: {
    description: 'Por quanto tempo uma sessão consultada é reutilizada antes de perguntar ao banco de novo; 0 consulta sempre.',
  },
  LIVE_TICK_MS: {
    description: 'Intervalo mínimo, em milissegundos, entre avisos agrupados ao vivo (ranking, indicadores da equipe, tags) a cada tela.',
  },
  METRICS_TOKEN: {
    description: 'Token (Bearer) que um sistema de monitoramento envia a /metrics; sem ele, /metrics fica desligado.',
    secret: true,
  },
  SHUTDOWN_TIMEOUT_MS: {
    description: 'Ao receber SIGTERM, quanto tempo (ms) o servidor espera as requisições em andamento antes de sair mesmo assim.',
  },
  S3_BUCKET: { description: 'Bucket S3 compatível onde ficam os arquivos (Data-Base e fotos); sem ele, a pasta DATA_DIR/uploads.' },
  S3_ENDPOINT: { description: 'Endereço do serviço S3 compatível (MinIO, Garage…); sem ele, o S3 da AWS na região S3_REGION.' },
  S3_REGION: { description: 'Região do bucket S3.' },
  S3_ACCESS_KEY_ID: { description: 'Chave de acesso do S3.' },
  S3_SECRET_ACCESS_KEY: { description: 'Chave secreta do S3.', secret: true },
  S3_FORCE_PATH_STYLE: { description: 'Usa o bucket no caminho do endereço (necessário na maioria dos serviços próprios, como MinIO).' },
  OIDC_GOOGLE_ISSUER: { description: 'Emissor OpenID Connect do Google (Entrar com Google).' },
  OIDC_GOOGLE_CLIENT_ID: { description: 'ID do cliente OAuth do Google; com ele, o login mostra “Entrar com Google”.' },
  OIDC_GOOGLE_CLIENT_SECRET: { description: 'Chave secreta do cliente OAuth do Google.', secret: true },
  OIDC_GOOGLE_EMAIL_DOMAIN: { description: 'Domínio(s) de email aceitos no login com Google (separados por vírgula), ex.: escola.edu.br.' },
  OIDC_MICROSOFT_ISSUER: {
    description: 'Emissor OpenID Connect do locatário Microsoft da escola: https://login.microsoftonline.com/<ID do locatário>/v2.0.',
  },
  OIDC_MICROSOFT_CLIENT_ID: { description: 'ID do aplicativo (cliente) na Microsoft; com ele, o login mostra “Entrar com Microsoft”.' },
  OIDC_MICROSOFT_CLIENT_SECRET: { description: 'Segredo do cliente do aplicativo na Microsoft.', secret: true },
  OIDC_MICROSOFT_EMAIL_DOMAIN: { description: 'Domínio(s) de email aceitos no login com Microsoft (separados por vírgula).' },
  SMTP_URL: {
    description:
      'Servidor de email (smtp:// ou smtps://, com usuário e senha no endereço); sem ele, nenhum email é enviado nem guardado para envio.',
    secret: true,
  },
  SMTP_FROM: { description: 'Remetente dos emails (resumo semanal e cartas aos responsáveis), ex.: Escola <nao-responda@escola.br>.' },
};

/** One variable as the server runs with it: the value as text (secrets never), and whether it came from the environment. */
export type ConfigSetting = {
  name: EnvName;
  value: string | null;
  source: 'default' | 'environment';
  secret: boolean;
  description: string;
};

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** PostgreSQL connections at most (server mode only; PGlite has one). */
  databasePoolSize: number;
  dataDir: string;
  uploadsDir: string;
  demo: boolean;
  firstAdmin: { email: string; password: string; name: string } | undefined;
  publicUrl: string | undefined;
  /** Served over HTTPS: Secure, __Host- cookies and HSTS. */
  https: boolean;
  allowedOrigins: string[];
  /** Null when the API limiter is off. */
  apiRateLimit: { signedIn: number; anonymous: number; windowMs: number } | null;
  logLevel: string;
  trustProxy: boolean;
  sessionCacheMs: number;
  /** LIVE_TICK_MS. */
  liveTickMs: number;
  /** Where the built front end lives; absent in API-only tests. */
  webDist: string | undefined;
  /** Null when /metrics is disabled. */
  metricsToken: string | null;
  shutdownTimeoutMs: number;
  /** Where files live: the local folder (uploadsDir) or an S3-compatible bucket. */
  storage: { driver: 'local' } | { driver: 's3'; s3: S3Settings };
  /** The school accounts one may sign in with (OpenID Connect), by provider; a provider left out is not offered. */
  signInProviders: Partial<Record<SignInProvider, SignInProviderConfig>>;
  /** Email over SMTP (decision 038), with PUBLIC_URL for its links; null: email is off, and nothing is queued. */
  smtp: { url: string; from: string; publicUrl: string } | null;
  /** Every variable with its effective value and source, for the Configurações tab. */
  settings: ConfigSetting[];
};

/** A school account provider as the server signs in with it (OpenID Connect, a confidential client). */
export type SignInProviderConfig = {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  /** Lower-case domains an email must end in (after its @), e.g. ['escola.edu.br']. */
  emailDomains: string[];
  /** Where the provider sends the browser back: PUBLIC_URL + the callback route, as registered at the provider. */
  redirectUri: string;
};

export class ConfigError extends Error {}

/** Loopback hosts, where a provider may be reached over plain http (a provider on the same machine, the tests). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The providers configured for sign-in with the school's accounts: a provider is on when its client id is set, and then
 * its secret, email domain and issuer (https, unless on this machine) and PUBLIC_URL must be set too; a partial
 * configuration stops the start rather than leave a button that cannot work.
 */
function signInProvidersOf(e: z.infer<typeof envSchema>): { providers: Config['signInProviders']; problems: string[] } {
  const providers: Config['signInProviders'] = {};
  const problems: string[] = [];
  for (const provider of SIGN_IN_PROVIDERS) {
    const prefix = `OIDC_${provider.toUpperCase() as Uppercase<SignInProvider>}` as const;
    const [issuer, id, secret, domain] = [
      e[`${prefix}_ISSUER`],
      e[`${prefix}_CLIENT_ID`],
      e[`${prefix}_CLIENT_SECRET`],
      e[`${prefix}_EMAIL_DOMAIN`],
    ];
    if (!id) {
      if (secret || domain) problems.push(`${prefix}_CLIENT_ID: obrigatório com ${prefix}_CLIENT_SECRET ou ${prefix}_EMAIL_DOMAIN`);
      continue;
    }
    const missing = [
      !secret && `${prefix}_CLIENT_SECRET`,
      !domain && `${prefix}_EMAIL_DOMAIN`,
      !issuer && `${prefix}_ISSUER`,
      !e.PUBLIC_URL && 'PUBLIC_URL',
    ].filter(Boolean);
    if (missing.length > 0) {
      problems.push(`${prefix}_CLIENT_ID: exige também ${missing.join(', ')}`);
      continue;
    }
    const issuerUrl = new URL(issuer!);
    if (issuerUrl.protocol !== 'https:' && !(issuerUrl.protocol === 'http:' && LOOPBACK_HOSTS.has(issuerUrl.hostname))) {
      problems.push(`${prefix}_ISSUER: use https:// (http:// só para um provedor nesta máquina)`);
      continue;
    }
    const emailDomains = domain!.split(',').map((part) => part.trim().toLowerCase().replace(/^@/, ''));
    if (emailDomains.some((part) => !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(part))) {
      problems.push(`${prefix}_EMAIL_DOMAIN: domínios separados por vírgula, como escola.edu.br`);
      continue;
    }
    const redirectUri = new URL(urlOf(routes.auth.oidcCallback, { params: { provider } }), e.PUBLIC_URL).toString();
    providers[provider] = { issuer: issuerUrl, clientId: id, clientSecret: secret!, emailDomains, redirectUri };
  }
  return { providers, problems };
}

/** The only reader of process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Configuração inválida:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const signIn = signInProvidersOf(e);
  if (e.SMTP_URL && !e.SMTP_FROM) signIn.problems.push('SMTP_FROM: obrigatório com SMTP_URL (o remetente dos emails)');
  if (e.SMTP_URL && !e.PUBLIC_URL) signIn.problems.push('SMTP_URL: exige também PUBLIC_URL (o endereço dos links dos emails)');
  if (signIn.problems.length > 0) throw new ConfigError(`Configuração inválida:\n${signIn.problems.map((line) => `  ${line}`).join('\n')}`);
  const dataDir = path.resolve(e.DATA_DIR);
  const https = e.PUBLIC_URL?.startsWith('https://') ?? false;
  const demo = e.DEMO ?? e.DATABASE_URL === undefined;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    dataDir,
    uploadsDir: path.join(dataDir, 'uploads'),
    demo,
    firstAdmin:
      e.ADMIN_EMAIL && e.ADMIN_PASSWORD
        ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD, name: e.ADMIN_NAME ?? 'Administrador' }
        : undefined,
    publicUrl: e.PUBLIC_URL,
    https,
    allowedOrigins: [e.PUBLIC_URL, ...(e.ALLOWED_ORIGINS?.split(',') ?? [])]
      .filter((origin): origin is string => Boolean(origin))
      .map((origin) => new URL(origin.trim()).origin),
    apiRateLimit:
      e.API_RATE_LIMIT > 0
        ? { signedIn: e.API_RATE_LIMIT, anonymous: e.API_RATE_LIMIT_ANONYMOUS, windowMs: e.API_RATE_LIMIT_WINDOW_MS }
        : null,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    sessionCacheMs: e.SESSION_CACHE_MS,
    liveTickMs: e.LIVE_TICK_MS,
    webDist: path.resolve('dist'),
    metricsToken: e.METRICS_TOKEN ?? null,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    storage: e.S3_BUCKET
      ? {
          driver: 's3',
          s3: {
            bucket: e.S3_BUCKET,
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          },
        }
      : { driver: 'local' },
    signInProviders: signIn.providers,
    smtp: e.SMTP_URL && e.SMTP_FROM && e.PUBLIC_URL ? { url: e.SMTP_URL, from: e.SMTP_FROM, publicUrl: e.PUBLIC_URL } : null,
    settings: settingsOf(env, e, { demo, dataDir }),
  };
}

/** Values as the server uses them: the demo flag as decided, the data folder resolved, flags as on/off. */
function settingsOf(
  env: NodeJS.ProcessEnv,
  parsed: z.infer<typeof envSchema>,
  effective: { demo: boolean; dataDir: string },
): ConfigSetting[] {
  const values: Partial<Record<EnvName, unknown>> = { ...parsed, DEMO: effective.demo, DATA_DIR: effective.dataDir };
  return (Object.keys(CONFIG_DESCRIPTIONS) as EnvName[]).map((name) => {
    const { description, secret = false } = CONFIG_DESCRIPTIONS[name];
    const value = values[name];
    const text = typeof value === 'boolean' ? (value ? 'on' : 'off') : String(value);
    const shown = value === undefined ? null : secret ? SECRET_MASK : text;
    return { name, value: shown, source: env[name] === undefined ? 'default' : 'environment', secret, description };
  });
}
