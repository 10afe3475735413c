import { defineRoutes } from './route.ts';

/** Responsáveis (issue 37, decision 037): the school's codes and links, the guardian's account and the family area. */
export const families = defineRoutes(['families'], {
  createCode: {
    method: 'POST',
    path: '/api/admin/students/:id/guardian-codes',
    access: 'manageStudents',
    description:
      'Gera o código de uso único (30 dias) com que um responsável acompanha o estudante; mostrado uma vez, guardado só como hash. ' +
      'Os códigos ainda não usados do estudante deixam de valer. Um professor, só para estudantes das suas turmas.',
    schemas: (s) => ({ params: s.studentUuidParam, response: { 201: s.guardianCodeResult } }),
  },
  letters: {
    method: 'POST',
    path: '/api/admin/guardian-letters',
    access: 'manageStudents',
    answer: 'file',
    produces: ['application/pdf'],
    description:
      "'Carta para responsáveis' de uma turma (`turmaId`) ou dos alunos escolhidos (`studentIds`): uma página por aluno, com um " +
      'código novo (os anteriores não usados deixam de valer), o QR code da página de cadastro e os passos. Os códigos aparecem só no PDF.',
    schemas: (s) => ({ body: s.accessCardsInput, response: { 200: s.reportFile } }),
  },
  studentGuardians: {
    method: 'GET',
    path: '/api/admin/students/:id/guardians',
    access: 'manageStudents',
    schemas: (s) => ({ params: s.studentUuidParam, response: { 200: s.studentGuardians } }),
  },
  unlink: {
    method: 'DELETE',
    path: '/api/admin/guardians/:id/students/:studentId',
    access: 'manageStudents',
    description: 'O responsável deixa de acompanhar o estudante (a conta dele continua, com os outros filhos).',
    schemas: (s) => ({ params: s.guardianLinkParams, response: { 200: s.messageResult } }),
  },
  signup: {
    method: 'POST',
    path: '/api/auth/guardian/signup',
    access: 'public',
    description: 'Cria a conta do responsável com o código de um filho e entra. Tentativas com código errado contam como as de login.',
    schemas: (s) => ({ body: s.guardianSignupInput, response: { 201: s.sessionUser } }),
  },
  addChild: {
    method: 'POST',
    path: '/api/family/children',
    access: 'guardian',
    schemas: (s) => ({ body: s.addChildInput, response: { 201: s.familyChild } }),
  },
  children: {
    method: 'GET',
    path: '/api/family/children',
    access: 'guardian',
    schemas: (s) => ({ response: { 200: s.familyChildren } }),
  },
  imageConsent: {
    method: 'PUT',
    path: '/api/family/children/:id/image-consent',
    access: 'guardian',
    description: 'O responsável dá (ou retira) o consentimento de imagem do filho; registrado na auditoria.',
    schemas: (s) => ({ params: s.familyChildParam, body: s.imageConsentInput, response: { 200: s.messageResult } }),
  },
  childSummary: {
    method: 'GET',
    path: '/api/family/children/:id/summary',
    access: 'guardian',
    schemas: (s) => ({ params: s.familyChildParam, response: { 200: s.familyChildSummary } }),
  },
});
