import { defineRoutes } from './route.ts';

/** Student management; photos and the CSV import are multipart uploads of one file (field "file"). */
export const adminStudents = defineRoutes(['admin-students'], {
  list: {
    method: 'GET',
    path: '/api/admin/students',
    access: 'staffArea',
    description: 'Uma página da busca de estudantes (nome sem acentos, matrícula, email ou turma), filtrável por turma.',
    schemas: (s) => ({ query: s.adminStudentsQuery, response: { 200: s.adminStudentsResponse } }),
  },
  create: {
    method: 'POST',
    path: '/api/admin/students',
    access: 'manageStudents',
    schemas: (s) => ({ body: s.createStudentInput, response: { 201: s.studentWriteResult } }),
  },
  update: {
    method: 'PATCH',
    path: '/api/admin/students/:id',
    access: 'manageStudents',
    schemas: (s) => ({ params: s.studentUuidParam, body: s.updateStudentInput, response: { 200: s.studentWriteResult } }),
  },
  remove: {
    method: 'DELETE',
    path: '/api/admin/students/:id',
    access: 'manageStudents',
    schemas: (s) => ({ params: s.studentUuidParam, response: { 200: s.messageResult } }),
  },
  resetPassword: {
    method: 'POST',
    path: '/api/admin/students/:id/password',
    access: 'manageStudents',
    schemas: (s) => ({ params: s.studentUuidParam, response: { 200: s.passwordResetResult } }),
  },
  accessCards: {
    method: 'POST',
    path: '/api/admin/students/access-cards',
    access: 'manageStudents',
    answer: 'file',
    produces: ['application/pdf'],
    description:
      'Cartões de acesso para imprimir e recortar (nome, matrícula, nova senha provisória, endereço do portal e seu QR code) ' +
      'de uma turma (`turmaId`) ou dos alunos escolhidos (`studentIds`). Redefine as senhas desses alunos e encerra as sessões ' +
      'deles; as novas senhas aparecem só no PDF.',
    schemas: (s) => ({ body: s.accessCardsInput, response: { 200: s.reportFile } }),
  },
  uploadPhoto: {
    method: 'POST',
    path: '/api/admin/students/:id/photo',
    access: 'manageStudents',
    upload: true,
    description: 'Foto enviada como arquivo (campo "file"): JPG, PNG, GIF ou WebP, até 5 MB.',
    schemas: (s) => ({ params: s.studentUuidParam, response: { 200: s.studentWriteResult } }),
  },
  setPhotoUrl: {
    method: 'PUT',
    path: '/api/admin/students/:id/photo',
    access: 'manageStudents',
    schemas: (s) => ({ params: s.studentUuidParam, body: s.photoUrlBody, response: { 200: s.studentWriteResult } }),
  },
  removePhoto: {
    method: 'DELETE',
    path: '/api/admin/students/:id/photo',
    access: 'manageStudents',
    schemas: (s) => ({ params: s.studentUuidParam, response: { 200: s.studentWriteResult } }),
  },
  importPreview: {
    method: 'POST',
    path: '/api/admin/students/import/preview',
    access: 'manageStudents',
    upload: true,
    description:
      'Arquivo CSV ou .xlsx (campo "file") com matrícula, nome, email, turma e data de nascimento, e antes dele o campo ' +
      '"turmas": as sugestões de turma confirmadas, em JSON ([{"from":"8º B","to":"8º ano B"}]). Nada é gravado.',
    schemas: (s) => ({ response: { 200: s.importPreview } }),
  },
  import: {
    method: 'POST',
    path: '/api/admin/students/import',
    access: 'manageStudents',
    upload: true,
    description:
      'Cria, numa só transação, todas as linhas válidas do arquivo (com as sugestões de turma confirmadas no campo "turmas", ' +
      'como na prévia), com senhas iniciais geradas (mostradas só nesta resposta).',
    schemas: (s) => ({ response: { 201: s.importResult } }),
  },
  importTemplate: {
    method: 'GET',
    path: '/api/admin/students/import/template',
    access: 'manageStudents',
    answer: 'file',
    produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    description: 'O modelo da importação (format=csv ou xlsx): as colunas que a importação lê e uma linha de exemplo que ela ignora.',
    schemas: (s) => ({ query: s.importTemplateQuery, response: { 200: s.reportFile } }),
  },
  export: {
    method: 'GET',
    path: '/api/admin/students/export.csv',
    access: 'staffArea',
    answer: 'file',
    produces: ['text/csv'],
    schemas: (s) => ({ response: { 200: s.csvFile } }),
  },
});
