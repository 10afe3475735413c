import { defineRoutes } from './route.ts';

/** The LGPD (decision 030): a student's personal data exported, erased and watched; the image consent; the privacy page. */
export const lgpd = defineRoutes(['lgpd'], {
  personalData: {
    method: 'GET',
    path: '/api/admin/students/:id/personal-data',
    access: 'manageStudents',
    description: 'Email, data de nascimento e consentimento de imagem de um estudante; cada leitura entra no registro de acessos.',
    schemas: (s) => ({ params: s.studentUuidParam, response: { 200: s.studentPersonalData } }),
  },
  export: {
    method: 'GET',
    path: '/api/admin/students/:id/personal-data-export',
    access: 'manageSchool',
    answer: 'file',
    produces: ['application/zip'],
    description: 'Tudo o que o Méritus guarda sobre o estudante: JSON dos registros, as fotos e o Relatório de dados pessoais (PDF).',
    schemas: (s) => ({ params: s.studentUuidParam, response: { 200: s.reportFile } }),
  },
  erase: {
    method: 'POST',
    path: '/api/admin/students/:id/erase',
    access: 'manageSchool',
    description: 'Anonimiza o estudante (irreversível): confirm é o nome do estudante digitado de novo, reason o motivo.',
    schemas: (s) => ({ params: s.studentUuidParam, body: s.eraseStudentInput, response: { 200: s.eraseStudentResult } }),
  },
  accessLog: {
    method: 'GET',
    path: '/api/admin/students/:id/access-log',
    access: 'manageSchool',
    schemas: (s) => ({ params: s.studentUuidParam, response: { 200: s.accessLog } }),
  },
  imageConsent: {
    method: 'PUT',
    path: '/api/admin/students/:id/image-consent',
    access: 'manageSchool',
    schemas: (s) => ({ params: s.studentUuidParam, body: s.imageConsentInput, response: { 200: s.messageResult } }),
  },
  privacySettings: {
    method: 'GET',
    path: '/api/admin/settings/privacy',
    access: 'manageSchool',
    schemas: (s) => ({ response: { 200: s.schoolPrivacy } }),
  },
  savePrivacySettings: {
    method: 'PUT',
    path: '/api/admin/settings/privacy',
    access: 'manageSchool',
    schemas: (s) => ({ body: s.schoolPrivacyInput, response: { 200: s.schoolPrivacy } }),
  },
  retentionPreview: {
    method: 'GET',
    path: '/api/admin/privacy/retention-preview',
    access: 'manageSchool',
    description: 'Quem a anonimização de inativos alcançaria com este prazo, hoje. Nada é alterado.',
    schemas: (s) => ({ query: s.retentionPreviewQuery, response: { 200: s.retentionPreview } }),
  },
  privacyPage: {
    method: 'GET',
    path: '/api/privacy',
    access: 'public',
    schemas: (s) => ({ response: { 200: s.privacyPage } }),
  },
});
