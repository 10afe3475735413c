import { expect, test } from 'vitest';
import { defaultPoolSize, loadConfig } from './config.ts';

test('the PostgreSQL pool holds two connections per core, at least four, unless DATABASE_POOL_SIZE says otherwise', () => {
  expect([1, 2, 3, 8].map((cores) => defaultPoolSize(cores))).toEqual([4, 4, 6, 16]);
  expect(loadConfig({}).databasePoolSize).toBe(defaultPoolSize());
  expect(loadConfig({ DATABASE_POOL_SIZE: '12' }).databasePoolSize).toBe(12);
  for (const value of ['0', '2.5', 'muitas']) expect(() => loadConfig({ DATABASE_POOL_SIZE: value })).toThrow(/DATABASE_POOL_SIZE/);
});

test('a school account provider is on with its client id, and then needs its secret, email domain, issuer and PUBLIC_URL', () => {
  expect(loadConfig({}).signInProviders).toEqual({});
  const google = { PUBLIC_URL: 'https://meritus.escola.br', OIDC_GOOGLE_CLIENT_ID: 'id', OIDC_GOOGLE_CLIENT_SECRET: 'segredo' };
  expect(loadConfig({ ...google, OIDC_GOOGLE_EMAIL_DOMAIN: ' Escola.BR, @aluno.escola.br ' }).signInProviders).toEqual({
    google: {
      issuer: new URL('https://accounts.google.com'),
      clientId: 'id',
      clientSecret: 'segredo',
      emailDomains: ['escola.br', 'aluno.escola.br'],
      redirectUri: 'https://meritus.escola.br/api/auth/oidc/google/callback',
    },
  });
  expect(() => loadConfig(google)).toThrow(/OIDC_GOOGLE_CLIENT_ID: exige também OIDC_GOOGLE_EMAIL_DOMAIN/);
  expect(() => loadConfig({ ...google, PUBLIC_URL: undefined, OIDC_GOOGLE_EMAIL_DOMAIN: 'escola.br' })).toThrow(/PUBLIC_URL/);
  expect(() => loadConfig({ OIDC_GOOGLE_CLIENT_SECRET: 'segredo' })).toThrow(/OIDC_GOOGLE_CLIENT_ID: obrigatório/);
  expect(() => loadConfig({ ...google, OIDC_GOOGLE_EMAIL_DOMAIN: 'escola' })).toThrow(/OIDC_GOOGLE_EMAIL_DOMAIN/);

  const microsoft = {
    PUBLIC_URL: 'https://meritus.escola.br',
    OIDC_MICROSOFT_CLIENT_ID: 'app',
    OIDC_MICROSOFT_CLIENT_SECRET: 'segredo',
    OIDC_MICROSOFT_EMAIL_DOMAIN: 'escola.br',
  };
  // Microsoft's issuer is the school's tenant: there is no default.
  expect(() => loadConfig(microsoft)).toThrow(/OIDC_MICROSOFT_ISSUER/);
  const tenant = 'https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0';
  expect(loadConfig({ ...microsoft, OIDC_MICROSOFT_ISSUER: tenant }).signInProviders.microsoft?.issuer.href).toBe(tenant);
  // Plain http only for a provider on this machine.
  expect(() => loadConfig({ ...microsoft, OIDC_MICROSOFT_ISSUER: 'http://login.escola.br' })).toThrow(/OIDC_MICROSOFT_ISSUER: use https/);
  expect(loadConfig({ ...microsoft, OIDC_MICROSOFT_ISSUER: 'http://127.0.0.1:4000' }).signInProviders.microsoft).toBeDefined();
  // The secret is never shown in the Configurações tab.
  const secret = loadConfig({ ...microsoft, OIDC_MICROSOFT_ISSUER: tenant }).settings.find(
    (s) => s.name === 'OIDC_MICROSOFT_CLIENT_SECRET',
  );
  expect(secret).toMatchObject({ secret: true, source: 'environment' });
  expect(secret?.value).not.toContain('segredo');
});

test('email is on with SMTP_URL, which needs SMTP_FROM and PUBLIC_URL; its password is never shown', () => {
  expect(loadConfig({}).smtp).toBeNull();
  const mail = { SMTP_URL: 'smtps://escola:senha-do-smtp@smtp.escola.br:465', SMTP_FROM: 'Escola <nao-responda@escola.br>' };
  const config = loadConfig({ ...mail, PUBLIC_URL: 'https://meritus.escola.br' });
  expect(config.smtp).toEqual({ url: mail.SMTP_URL, from: mail.SMTP_FROM, publicUrl: 'https://meritus.escola.br' });
  expect(JSON.stringify(config.settings)).not.toContain('senha-do-smtp');
  expect(() => loadConfig(mail)).toThrow(/SMTP_URL: exige também PUBLIC_URL/);
  expect(() => loadConfig({ SMTP_URL: mail.SMTP_URL, PUBLIC_URL: 'https://meritus.escola.br' })).toThrow(/SMTP_FROM/);
  expect(() => loadConfig({ ...mail, SMTP_URL: 'http://smtp.escola.br', PUBLIC_URL: 'https://meritus.escola.br' })).toThrow(/SMTP_URL/);
});
