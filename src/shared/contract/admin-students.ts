import { defineRoutes } from './route.ts';

/** Student management; photos and the CSV import are multipart uploads of one file (field "file"). */
export const adminStudents = defineRoutes(
  {
    tags: ['admin-students'],
    load: async () => ({ students: await import('../admin-students.ts'), responses: await import('../responses.ts') }),
  },
  {
    list: { method: 'GET', path: '/api/admin/students', access: 'admin', schemas: ({ students }) => ({ response: { 200: students.adminStudentsResponse } }) },
    create: {
      method: 'POST',
      path: '/api/admin/students',
      access: 'admin',
      schemas: ({ students }) => ({ body: students.createStudentInput, response: { 201: students.studentWriteResult } }),
    },
    update: {
      method: 'PATCH',
      path: '/api/admin/students/:id',
      access: 'admin',
      schemas: ({ students }) => ({ params: students.studentUuidParam, body: students.updateStudentInput, response: { 200: students.studentWriteResult } }),
    },
    remove: {
      method: 'DELETE',
      path: '/api/admin/students/:id',
      access: 'admin',
      schemas: ({ students, responses }) => ({ params: students.studentUuidParam, response: { 200: responses.messageResult } }),
    },
    resetPassword: {
      method: 'POST',
      path: '/api/admin/students/:id/password',
      access: 'admin',
      schemas: ({ students }) => ({ params: students.studentUuidParam, response: { 200: students.passwordResetResult } }),
    },
    uploadPhoto: {
      method: 'POST',
      path: '/api/admin/students/:id/photo',
      access: 'admin',
      upload: true,
      description: 'Foto enviada como arquivo (campo "file"): JPG, PNG, GIF ou WebP, até 5 MB.',
      schemas: ({ students }) => ({ params: students.studentUuidParam, response: { 200: students.studentWriteResult } }),
    },
    setPhotoUrl: {
      method: 'PUT',
      path: '/api/admin/students/:id/photo',
      access: 'admin',
      schemas: ({ students }) => ({ params: students.studentUuidParam, body: students.photoUrlBody, response: { 200: students.studentWriteResult } }),
    },
    removePhoto: {
      method: 'DELETE',
      path: '/api/admin/students/:id/photo',
      access: 'admin',
      schemas: ({ students }) => ({ params: students.studentUuidParam, response: { 200: students.studentWriteResult } }),
    },
    importPreview: {
      method: 'POST',
      path: '/api/admin/students/import/preview',
      access: 'admin',
      upload: true,
      description: 'Arquivo CSV (campo "file") com matrícula, nome, email, série e data de nascimento. Nada é gravado.',
      schemas: ({ students }) => ({ response: { 200: students.importPreview } }),
    },
    import: {
      method: 'POST',
      path: '/api/admin/students/import',
      access: 'admin',
      upload: true,
      description: 'Cria, numa só transação, todas as linhas válidas do arquivo, com senhas iniciais geradas (mostradas só nesta resposta).',
      schemas: ({ students }) => ({ response: { 201: students.importResult } }),
    },
    export: {
      method: 'GET',
      path: '/api/admin/students/export.csv',
      access: 'admin',
      answer: 'file',
      produces: ['text/csv'],
      schemas: ({ responses }) => ({ response: { 200: responses.csvFile } }),
    },
  },
);
