import { defineRoutes } from './route.ts';

export const auth = defineRoutes(
  { tags: ['auth'], load: async () => ({ z: (await import('zod')).z, auth: await import('../auth.ts') }) },
  {
    studentLogin: {
      method: 'POST',
      path: '/api/auth/student/login',
      access: 'public',
      schemas: ({ auth }) => ({ body: auth.studentLoginInput, response: { 200: auth.sessionUser } }),
    },
    adminLogin: {
      method: 'POST',
      path: '/api/auth/admin/login',
      access: 'public',
      schemas: ({ auth }) => ({ body: auth.adminLoginInput, response: { 200: auth.sessionUser } }),
    },
    logout: { method: 'POST', path: '/api/auth/logout', access: 'signedIn', schemas: ({ z }) => ({ response: { 204: z.null() } }) },
    me: { method: 'GET', path: '/api/auth/me', access: 'signedIn', schemas: ({ auth }) => ({ response: { 200: auth.sessionUser } }) },
  },
);
