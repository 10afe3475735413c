import { defineRoutes } from './route.ts';

/** The school's settings, its turmas and its administrators; the logo is a multipart upload of one file (field "file"). */
export const settings = defineRoutes(
  {
    tags: ['settings'],
    load: async () => ({ z: (await import('zod')).z, settings: await import('../settings.ts'), responses: await import('../responses.ts') }),
  },
  {
    public: { method: 'GET', path: '/api/settings/public', access: 'public', schemas: ({ settings }) => ({ response: { 200: settings.publicSettings } }) },
    read: { method: 'GET', path: '/api/settings', access: 'signedIn', schemas: ({ settings }) => ({ response: { 200: settings.schoolSettings } }) },
    saveSchool: {
      method: 'PUT',
      path: '/api/admin/settings/school',
      access: 'admin',
      schemas: ({ settings }) => ({ body: settings.schoolInfoInput, response: { 200: settings.schoolSettings } }),
    },
    uploadLogo: {
      method: 'POST',
      path: '/api/admin/settings/logo',
      access: 'admin',
      upload: true,
      description: 'Logo enviado como arquivo (campo "file"): JPG, PNG, GIF ou WebP, até 5 MB.',
      schemas: ({ settings }) => ({ response: { 200: settings.schoolSettings } }),
    },
    removeLogo: { method: 'DELETE', path: '/api/admin/settings/logo', access: 'admin', schemas: ({ settings }) => ({ response: { 200: settings.schoolSettings } }) },
    saveRules: {
      method: 'PUT',
      path: '/api/admin/settings/rules',
      access: 'admin',
      schemas: ({ settings }) => ({ body: settings.schoolRulesInput, response: { 200: settings.schoolSettings } }),
    },
    turmas: { method: 'GET', path: '/api/admin/turmas', access: 'admin', schemas: ({ z, settings }) => ({ response: { 200: z.array(settings.adminTurma) } }) },
    createTurma: {
      method: 'POST',
      path: '/api/admin/turmas',
      access: 'admin',
      schemas: ({ settings }) => ({ body: settings.createTurmaInput, response: { 201: settings.turmaWriteResult } }),
    },
    updateTurma: {
      method: 'PATCH',
      path: '/api/admin/turmas/:id',
      access: 'admin',
      schemas: ({ settings }) => ({ params: settings.turmaParams, body: settings.updateTurmaInput, response: { 200: settings.turmaWriteResult } }),
    },
    admins: { method: 'GET', path: '/api/admin/admins', access: 'admin', schemas: ({ z, settings }) => ({ response: { 200: z.array(settings.adminAccount) } }) },
    createAdmin: {
      method: 'POST',
      path: '/api/admin/admins',
      access: 'admin',
      schemas: ({ settings }) => ({ body: settings.createAdminInput, response: { 201: settings.adminWriteResult } }),
    },
    removeAdmin: {
      method: 'DELETE',
      path: '/api/admin/admins/:id',
      access: 'admin',
      schemas: ({ settings, responses }) => ({ params: settings.adminParams, response: { 200: responses.messageResult } }),
    },
    resetAdminPassword: {
      method: 'POST',
      path: '/api/admin/admins/:id/password',
      access: 'admin',
      schemas: ({ settings }) => ({ params: settings.adminParams, body: settings.adminPasswordInput.optional(), response: { 200: settings.adminWriteResult } }),
    },
  },
);
