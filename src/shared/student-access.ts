import { z } from 'zod';
import { studentPassword } from './admin-students.ts';
import { countOf } from './format.ts';
import { rowId, textInput } from './validation.ts';

/** How students get into their accounts (issue 36): access cards, a turma's passwords reset at once, their own password. */

/** Most cards one request prints (and passwords it resets): about 9 s of hashing, 38 pages. */
export const ACCESS_CARDS_MAX = 300;

/** POST /api/admin/students/access-cards: every current student of a turma, or the students chosen (any turmas). */
export const accessCardsInput = z
  .object({
    turmaId: rowId({ error: 'turma_not_found' }).optional(),
    studentIds: z
      .array(rowId({ error: 'student_not_found' }), { error: 'access_cards_choice' })
      .min(1, { error: 'access_cards_choice' })
      .max(ACCESS_CARDS_MAX, { error: 'access_cards_too_many' })
      .optional(),
  })
  .refine((input) => (input.turmaId === undefined) !== (input.studentIds === undefined), { error: 'access_cards_choice' });
export type AccessCardsInput = z.input<typeof accessCardsInput>;

/** POST /api/me/password: the student's own password, the current one proving it is them. */
export const changeOwnPasswordInput = z.object({
  currentPassword: textInput({ error: 'missing_fields', max: 200, trim: false }).min(1, { error: 'missing_fields' }),
  newPassword: studentPassword,
});
export type ChangeOwnPasswordInput = z.input<typeof changeOwnPasswordInput>;

export const ACCESS_CARD_TEXTS = {
  documentTitle: (what: string) => `Cartões de acesso — ${what}`,
  selected: 'alunos escolhidos',
  heading: 'Cartão de acesso ao Méritus',
  studentId: 'Matrícula',
  password: 'Senha provisória',
  address: 'Entre em',
  scan: 'ou aponte a câmera para o código',
  keep: 'Guarde este cartão. Não mostre a senha a ninguém.',
  changeHint: 'Depois de entrar, troque a senha em Meu Perfil › Alterar senha.',
  cut: 'Recorte nas linhas tracejadas',
  fileName: (slug: string, day: string) => `cartoes-de-acesso-${slug}-${day}.pdf`,
  /** The confirmation, before anything happens. */
  confirm: (count: number) =>
    `As senhas atuais de ${countOf(count, 'aluno', 'alunos')} deixam de funcionar e as sessões abertas são encerradas. ` +
    'As novas senhas aparecem só no PDF.',
  done: (count: number) => `${countOf(count, 'cartão de acesso gerado', 'cartões de acesso gerados')}: senhas redefinidas`,
} as const;

export const OWN_PASSWORD_TEXTS = {
  title: 'Alterar senha',
  current: 'Senha atual',
  next: 'Nova senha',
  repeat: 'Repita a nova senha',
  mismatch: 'As senhas não conferem',
  submit: 'Salvar nova senha',
  changed: 'Senha alterada. Suas sessões em outros aparelhos foram encerradas.',
  requiredTitle: 'Crie a sua senha',
  requiredIntro: 'Você entrou com uma senha provisória. Para continuar, escolha uma senha só sua.',
  requiredCurrent: 'Senha provisória (a do cartão)',
} as const;
