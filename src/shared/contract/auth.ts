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
  // A guardian's sign-in (decision 037) is here, not in families.ts: the login page's chunk would carry that whole contract.
  guardianLogin: {
    method: 'POST',
    path: '/api/auth/guardian/login',
    access: 'public',
    schemas: (s) => ({ body: s.guardianLoginInput, response: { 200: s.sessionUser } }),
  },
  logout: { method: 'POST', path: '/api/auth/logout', access: 'signedIn', schemas: (s) => ({ response: { 204: s.z.null() } }) },
  me: { method: 'GET', path: '/api/auth/me', access: 'signedIn', schemas: (s) => ({ response: { 200: s.sessionUser } }) },
  changePassword: {
    method: 'POST',
    path: '/api/me/password',
    access: 'student',
    description: 'O estudante troca a própria senha (a atual é exigida); as outras sessões dele são encerradas, esta continua.',
    schemas: (s) => ({ body: s.changeOwnPasswordInput, response: { 200: s.messageResult } }),
  },
  // Sign-in with the school's accounts (decision 024): the browser goes to the provider and comes back, then to its area or to /login?error=….
  oidcStart: {
    method: 'GET',
    path: '/api/auth/oidc/:provider/start',
    access: 'public',
    answer: 'redirect',
    schemas: (s) => ({ params: s.signInProviderParams }),
  },
  oidcCallback: {
    method: 'GET',
    path: '/api/auth/oidc/:provider/callback',
    access: 'public',
    answer: 'redirect',
    schemas: (s) => ({ params: s.signInProviderParams, query: s.signInCallbackQuery }),
  },
});
