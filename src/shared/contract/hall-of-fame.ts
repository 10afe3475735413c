import { defineRoutes } from './route.ts';

/** The Hall da Fama (issue 38, decision 035): every signed-in person reads it under the privacy rules; certificates of honours. */
export const hallOfFame = defineRoutes(['hall-of-fame'], {
  read: {
    method: 'GET',
    path: '/api/hall-of-fame',
    access: 'signedIn',
    summary: 'Os destaques de um ano letivo encerrado (o mais recente sem year=) e a lista dos anos encerrados',
    schemas: (s) => ({ query: s.hallOfFameQuery, response: { 200: s.hallOfFame } }),
  },
  certificate: {
    method: 'GET',
    path: '/api/hall-of-fame/honours/:id/certificate.pdf',
    access: 'signedIn',
    answer: 'file',
    produces: ['application/pdf'],
    description: 'O certificado de um destaque: a equipe (o professor, das suas turmas) ou o próprio estudante.',
    schemas: (s) => ({ params: s.honourParams, response: { 200: s.reportFile } }),
  },
});
