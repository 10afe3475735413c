import { defineRoutes } from './route.ts';

export const auth = defineRoutes(['auth'], {
  studentLogin: {
    method: 'POST',
    path: '/api/auth/student/login',
    access: 'public',
    schemas: (s) => ({ body: s.studentLoginInput, response: { 200: s.sessionUser } }),
  },
  adminLogin: {
    method: 'POST',
    path: '/api/auth/admin/login',
    access: 'public',
    schemas: (s) => ({ body: s.adminLoginInput, response: { 200: s.sessionUser } }),
  },
  logout: { method: 'POST', path: '/api/auth/logout', access: 'signedIn', schemas: (s) => ({ response: { 204: s.z.null() } }) },
  me: { method: 'GET', path: '/api/auth/me', access: 'signedIn', schemas: (s) => ({ response: { 200: s.sessionUser } }) },
  oidcStart: {
    method: 'GET',
    path: '/api/auth/oidc/:provider/start',
    access: 'public',
    answer: 'redirect',
    summary: 'Entrar com a conta da escola (Google, Microsoft)',
    description:
      'Redireciona ao provedor configurado (OpenID Connect, código de autorização com PKCE, state e nonce). ' +
      '404 quando o provedor não está configurado neste servidor.',
    schemas: (s) => ({ params: s.signInProviderParams }),
  },
  oidcCallback: {
    method: 'GET',
    path: '/api/auth/oidc/:provider/callback',
    access: 'public',
    answer: 'redirect',
    summary: 'Retorno do provedor da conta da escola',
    description:
      'Confere state, código e ID token e abre a sessão de quem tem este email verificado (estudante ou equipe); ' +
      'redireciona à área da pessoa, ou a /login?error=… com o motivo da recusa. Nunca cria contas.',
    schemas: (s) => ({ params: s.signInProviderParams, query: s.signInCallbackQuery }),
  },
});
