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
});
