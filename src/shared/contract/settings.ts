import { defineRoutes } from './route.ts';

/** The school's settings and its turmas; the logo is a multipart upload of one file (field "file"). */
export const settings = defineRoutes(['settings'], {
  public: { method: 'GET', path: '/api/settings/public', access: 'public', schemas: (s) => ({ response: { 200: s.publicSettings } }) },
  read: { method: 'GET', path: '/api/settings', access: 'signedIn', schemas: (s) => ({ response: { 200: s.schoolSettings } }) },
  saveSchool: {
    method: 'PUT',
    path: '/api/admin/settings/school',
    access: 'manageSchool',
    schemas: (s) => ({ body: s.schoolInfoInput, response: { 200: s.schoolSettings } }),
  },
  uploadLogo: {
    method: 'POST',
    path: '/api/admin/settings/logo',
    access: 'manageSchool',
    upload: true,
    description: 'Logo enviado como arquivo (campo "file"): JPG, PNG, GIF ou WebP, até 5 MB.',
    schemas: (s) => ({ response: { 200: s.schoolSettings } }),
  },
  removeLogo: {
    method: 'DELETE',
    path: '/api/admin/settings/logo',
    access: 'manageSchool',
    schemas: (s) => ({ response: { 200: s.schoolSettings } }),
  },
  saveRules: {
    method: 'PUT',
    path: '/api/admin/settings/rules',
    access: 'manageSchool',
    schemas: (s) => ({ body: s.schoolRulesInput, response: { 200: s.schoolSettings } }),
  },
  turmas: {
    method: 'GET',
    path: '/api/admin/turmas',
    access: 'staffArea',
    schemas: (s) => ({ response: { 200: s.z.array(s.adminTurma) } }),
  },
  createTurma: {
    method: 'POST',
    path: '/api/admin/turmas',
    access: 'manageSchool',
    schemas: (s) => ({ body: s.createTurmaInput, response: { 201: s.turmaWriteResult } }),
  },
  updateTurma: {
    method: 'PATCH',
    path: '/api/admin/turmas/:id',
    access: 'manageSchool',
    schemas: (s) => ({ params: s.turmaParams, body: s.updateTurmaInput, response: { 200: s.turmaWriteResult } }),
  },
  deleteTurma: {
    method: 'DELETE',
    path: '/api/admin/turmas/:id',
    access: 'manageSchool',
    description: 'Apaga uma turma que nada usa (nenhum estudante, atual ou removido, nenhum item da Loja, nenhuma operação); senão 409.',
    schemas: (s) => ({ params: s.turmaParams, response: { 200: s.messageResult } }),
  },
});
