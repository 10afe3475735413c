import { defineRoutes } from './route.ts';

/** The school year, its periods and the rollover (issue 38, decision 031): any staff member reads, the coordination writes. */
export const schoolYear = defineRoutes(['school-year'], {
  list: {
    method: 'GET',
    path: '/api/admin/school-years',
    access: 'staffArea',
    schemas: (s) => ({ response: { 200: s.schoolYearList } }),
  },
  create: {
    method: 'POST',
    path: '/api/admin/school-years',
    access: 'manageSchool',
    schemas: (s) => ({ body: s.schoolYearInput, response: { 201: s.schoolYear } }),
  },
  update: {
    method: 'PATCH',
    path: '/api/admin/school-years/:id',
    access: 'manageSchool',
    schemas: (s) => ({ params: s.schoolYearParams, body: s.schoolYearInput, response: { 200: s.schoolYear } }),
  },
  rolloverPreview: {
    method: 'POST',
    path: '/api/admin/rollover/preview',
    access: 'manageSchool',
    summary: 'Prévia da virada do ano: o que muda, com contagens, e o token que a aplicação envia de volta',
    schemas: (s) => ({ body: s.rolloverInput, response: { 200: s.rolloverPreview } }),
  },
  rolloverApply: {
    method: 'POST',
    path: '/api/admin/rollover/apply',
    access: 'manageSchool',
    summary: 'Aplica a virada do ano, depois de uma cópia de segurança, numa só transação',
    schemas: (s) => ({ body: s.rolloverApplyInput, headers: s.idempotencyHeaders, response: { 200: s.rolloverOutcome } }),
  },
});
