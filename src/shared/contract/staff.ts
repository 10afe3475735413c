import { defineRoutes } from './route.ts';

/** The school's staff (Configurações › Equipe): coordinators and teachers, their turmas, budgets and sign-in. */
export const staff = defineRoutes(['staff'], {
  list: {
    method: 'GET',
    path: '/api/admin/staff',
    access: 'manageSchool',
    schemas: (s) => ({ response: { 200: s.z.array(s.staffMember) } }),
  },
  create: {
    method: 'POST',
    path: '/api/admin/staff',
    access: 'manageSchool',
    description: 'Sem senha, uma é gerada e respondida uma única vez em `password`.',
    schemas: (s) => ({ body: s.createStaffInput, response: { 201: s.staffWithPassword } }),
  },
  update: {
    method: 'PATCH',
    path: '/api/admin/staff/:id',
    access: 'manageSchool',
    description: 'Papel, turmas, limite semanal e ativo. Desativar encerra as sessões do membro; a última coordenação ativa não sai.',
    schemas: (s) => ({ params: s.staffParams, body: s.updateStaffInput, response: { 200: s.staffMember } }),
  },
  resetPassword: {
    method: 'POST',
    path: '/api/admin/staff/:id/password',
    access: 'manageSchool',
    schemas: (s) => ({ params: s.staffParams, body: s.staffPasswordInput.optional(), response: { 200: s.staffWithPassword } }),
  },
  updateOwnProfile: {
    method: 'PATCH',
    path: '/api/admin/me',
    access: 'staffArea',
    description: 'O próprio nome do membro (Meu perfil): aparece nas saudações e em "por …" das operações feitas daí em diante.',
    schemas: (s) => ({ body: s.ownProfileInput, response: { 200: s.sessionUser } }),
  },
});
