import { defineRoutes } from './route.ts';

/** Email (issue 37, decision 038): whether it is on, the letter by email, the weekly summary's opt-out. */
export const mail = defineRoutes(['mail'], {
  status: {
    method: 'GET',
    path: '/api/admin/mail',
    access: 'manageStudents',
    description: 'Se este servidor envia emails (SMTP_URL configurado); sem isso, nenhum email é guardado para envio.',
    schemas: (s) => ({ response: { 200: s.mailStatus } }),
  },
  letterEmail: {
    method: 'POST',
    path: '/api/admin/students/:id/guardian-letter-email',
    access: 'manageStudents',
    description:
      "Envia a 'Carta para responsáveis' do estudante, com um código novo (os anteriores não usados deixam de valer), ao email " +
      'informado. O código vai só no email; registrado na auditoria sem ele.',
    schemas: (s) => ({ params: s.studentUuidParam, body: s.guardianLetterEmailInput, response: { 201: s.messageResult } }),
  },
  familyPreferences: {
    method: 'GET',
    path: '/api/family/mail',
    access: 'guardian',
    schemas: (s) => ({ response: { 200: s.familyMailPreferences } }),
  },
  setFamilyPreferences: {
    method: 'PUT',
    path: '/api/family/mail',
    access: 'guardian',
    description: 'Liga ou desliga o resumo semanal por email.',
    schemas: (s) => ({ body: s.familyMailInput, response: { 200: s.familyMailPreferences } }),
  },
  unsubscribe: {
    method: 'POST',
    path: '/api/mail/unsubscribe',
    access: 'public',
    description: 'Desliga o resumo semanal do responsável pelo link assinado do próprio email (um clique, sem entrar).',
    schemas: (s) => ({ body: s.unsubscribeInput, response: { 200: s.messageResult } }),
  },
  // The email's List-Unsubscribe address (RFC 8058): a mail reader's own button posts to it; opened in a browser, it
  // leads to the page that asks for the click.
  oneClickUnsubscribe: {
    method: 'POST',
    path: '/api/mail/unsubscribe/one-click',
    access: 'public',
    description:
      'O botão "Cancelar inscrição" do próprio leitor de email (RFC 8058, List-Unsubscribe-Post): desliga o resumo semanal ' +
      'do responsável do link assinado, sem entrar.',
    schemas: (s) => ({ query: s.unsubscribeLinkQuery, response: { 200: s.messageResult } }),
  },
  oneClickUnsubscribePage: {
    method: 'GET',
    path: '/api/mail/unsubscribe/one-click',
    access: 'public',
    answer: 'redirect',
    description: 'O mesmo endereço aberto num navegador: leva à página do link, que pede a confirmação.',
    schemas: (s) => ({ query: s.unsubscribeLinkQuery }),
  },
});
