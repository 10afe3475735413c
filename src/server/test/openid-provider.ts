import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import Provider, { interactionPolicy, type Adapter, type AdapterPayload } from 'oidc-provider';

/** What the provider says of the person who signs in: the ID token's claims besides `sub`. */
export type TestIdentity = { email?: string; email_verified?: boolean; xms_edov?: boolean; name?: string };

/** One client registered at the provider, as the server's configuration names it. */
type TestClient = { id: string; secret: string };

export type TestOpenIdProvider = {
  /** The provider's issuer identifier (http://127.0.0.1:port). */
  issuer: string;
  /** The OIDC_* variables that configure both of the server's providers ('google' and 'microsoft') with this one. */
  env: Record<string, string>;
  /** Who the next sign-in at the provider is: its login and consent pages approve them at once. */
  signInAs(identity: TestIdentity): void;
  /** Makes every authorization code issued so far expired, as if its minute at the provider had passed. */
  expireCodes(): void;
  close(): Promise<void>;
};

/**
 * A real OpenID Provider (oidc-provider, a certified implementation) on a random local port, standing in for the
 * school's Google Workspace and Microsoft 365 in the API tests: authorization code flow with PKCE, signed ID tokens,
 * discovery and keys over HTTP. Its interactions sign in, and consent for, whoever `signInAs` named last.
 */
export async function startOpenIdProvider(publicUrl: string, allowedDomain: string): Promise<TestOpenIdProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const stored = new Map<string, { model: string; payload: AdapterPayload }>();
  class MemoryAdapter implements Adapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload) {
      stored.set(this.key(id), { model: this.model, payload });
    }
    async find(id: string) {
      return stored.get(this.key(id))?.payload;
    }
    async findByUid(uid: string) {
      return [...stored.values()].find((entry) => entry.model === this.model && entry.payload.uid === uid)?.payload;
    }
    async findByUserCode(userCode: string) {
      return [...stored.values()].find((entry) => entry.model === this.model && entry.payload.userCode === userCode)?.payload;
    }
    async consume(id: string) {
      const entry = stored.get(this.key(id));
      if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      stored.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, entry] of stored) if (entry.payload.grantId === grantId) stored.delete(key);
    }
  }

  const accounts = new Map<string, TestIdentity>();
  let next: string | undefined;
  const clients = { google: client(), microsoft: client() };
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  // Google and Microsoft let the client ask for the account chooser (prompt=select_account); Méritus does.
  const policy = interactionPolicy.base();
  policy.add(new interactionPolicy.Prompt({ name: 'select_account', requestable: true }), 0);
  const provider = new Provider(issuer, {
    adapter: MemoryAdapter,
    clients: Object.values(clients).map(({ id, secret }) => ({
      client_id: id,
      client_secret: secret,
      redirect_uris: Object.keys(clients).map((name) => `${publicUrl}/api/auth/oidc/${name}/callback`),
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })),
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified', 'xms_edov'], profile: ['name'] },
    // Google and Microsoft put the email in the ID token itself, not only behind the userinfo endpoint.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    ttl: { AuthorizationCode: 60, AccessToken: 600, IdToken: 600, Grant: 600, Interaction: 600, Session: 600 },
    features: { devInteractions: { enabled: false } },
    interactions: { policy, url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    clientBasedCORS: () => false,
    async findAccount(_ctx, sub) {
      const identity = accounts.get(sub);
      return identity && { accountId: sub, claims: async () => ({ sub, ...identity }) };
    },
  });
  const callback = provider.callback();

  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    if (!request.url?.startsWith('/interaction/')) return callback(request, response);
    void (async () => {
      const details = await provider.interactionDetails(request, response);
      if (!next) throw new Error('signInAs was not called before the sign-in');
      const grant = new provider.Grant({ accountId: next, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(
        request,
        response,
        { select_account: {}, login: { accountId: next }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    })().catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });

  return {
    issuer,
    env: {
      PUBLIC_URL: publicUrl,
      ...Object.fromEntries(
        Object.entries(clients).flatMap(([name, { id, secret }]) => {
          const prefix = `OIDC_${name.toUpperCase()}`;
          return [
            [`${prefix}_ISSUER`, issuer],
            [`${prefix}_CLIENT_ID`, id],
            [`${prefix}_CLIENT_SECRET`, secret],
            [`${prefix}_EMAIL_DOMAIN`, allowedDomain],
          ];
        }),
      ),
    },
    signInAs(identity) {
      next = `account-${accounts.size + 1}`;
      accounts.set(next, identity);
    },
    expireCodes() {
      for (const entry of stored.values()) if (entry.model === 'AuthorizationCode') entry.payload.exp = Math.floor(Date.now() / 1000) - 1;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

function client(): TestClient {
  return { id: `meritus-${randomBytes(4).toString('hex')}`, secret: randomBytes(24).toString('base64url') };
}
