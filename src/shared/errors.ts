import { countOf, formatEstelecas, formatMeritus, plural } from './format.ts';

/**
 * Stable error codes shared by server and client. The server sends the code and
 * the pt-BR message, which may carry particulars (how long to wait); the client
 * shows the server's message, or the one it knows for the code when there is none.
 */
export const ERROR_MESSAGES = {
  bad_request: 'Dados inválidos',
  validation: 'Dados inválidos',
  unauthenticated: 'Sessão expirada. Faça login novamente.',
  forbidden: 'Você não tem permissão para esta ação',
  not_found: 'Recurso não encontrado',
  csrf: 'Requisição de origem não permitida',
  rate_limited: 'Muitas requisições. Aguarde um momento e tente novamente.',
  login_locked: 'Muitas tentativas de login. Tente novamente em 15 minutos.',
  client_throttled: 'Too many requests',
  body_too_large: 'A requisição é grande demais. O limite é 1 MB.',
  invalid_text: 'O texto contém caracteres inválidos',
  internal: 'Erro interno. Tente novamente.',
  network: 'Erro de conexão. Verifique sua internet.',
  student_login_failed: 'Matrícula ou senha incorretos',
  admin_login_failed: 'Email ou senha incorretos',
  login_error: 'Erro ao fazer login. Tente novamente.',
  logout_error: 'Erro ao fazer logout.',
  missing_fields: 'Preencha todos os campos obrigatórios',
  missing_fields_short: 'Preencha todos os campos',
  amount_not_positive: 'O valor deve ser maior que zero',
  amount_not_integer: 'O valor deve ser um número inteiro',
  amount_too_large: 'O valor máximo por operação é 100.000',
  insufficient_balance: 'Saldo insuficiente',
  estelecas_invalid_amount: 'Quantidade inválida ou insuficiente',
  student_not_found: 'Estudante não encontrado',
  self_transfer: 'Você não pode transferir para si mesmo',
  remove_exceeds_balance: 'Não é possível remover mais Méritus do que o estudante possui',
  remove_exceeds_estelecas: 'Não é possível remover mais Estelecas do que o estudante possui',
  idempotency_conflict: 'Esta operação já foi enviada com outros dados. Recarregue a página e tente novamente.',
  idempotency_in_progress: 'Esta operação ainda está sendo processada',
  transfer_failed: 'Erro ao realizar transferência',
  student_id_taken: 'Já existe um estudante com esta matrícula',
  email_taken: 'Este email já está em uso',
  invalid_grade: 'Selecione uma série válida',
  invalid_photo_type: 'Formato não suportado. Use JPG, PNG, GIF ou WebP.',
  photo_too_large: 'Arquivo muito grande. Máximo 5MB.',
  invalid_photo_url: 'URL da imagem inválida ou inacessível',
  photo_url_not_https: 'A URL da imagem deve começar com https:// (endereços http:// não são aceitos)',
  goal_not_found: 'Meta não encontrada',
  goal_invalid_target: 'Informe uma meta válida (número inteiro maior que zero)',
  goal_percent_range: 'A meta de participação deve estar entre 1 e 100%',
  preset_label_required: 'Informe o texto do motivo',
  preset_label_too_long: 'O motivo deve ter no máximo 80 caracteres',
  preset_exists: 'Este motivo já está salvo',
  preset_limit: 'Limite de 30 motivos atingido. Remova um para adicionar outro.',
  preset_not_found: 'Motivo não encontrado',
  tag_not_found: 'Esta tag não está mais ativa',
  invalid_email: 'Email inválido',
  invalid_birth_date: 'Data de nascimento inválida',
  invalid_initial_meritus: 'O Méritus inicial deve ser um número inteiro maior ou igual a zero',
  password_too_short: 'A senha deve ter pelo menos 6 caracteres',
  invalid_tag_days: 'A duração deve ser um número inteiro de 1 a 365 dias',
  invalid_tag_expiry: 'Data de expiração inválida (no máximo 365 dias a partir de hoje)',
  file_missing: 'Nenhum arquivo selecionado',
  import_too_large: 'Arquivo muito grande. Máximo 2MB.',
  import_no_header: 'Cabeçalho não reconhecido: o arquivo precisa das colunas matrícula e nome',
  import_empty: 'O arquivo não tem nenhuma linha de aluno',
  import_too_many_rows: 'O arquivo tem mais de 5.000 linhas; divida-o em partes menores',
  import_nothing_valid: 'Nenhuma linha válida para importar',
  search_too_long: 'A busca deve ter no máximo 100 caracteres',
} as const;

export type ErrorCode = keyof typeof ERROR_MESSAGES;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_MESSAGES, value);
}

/** 'login_locked' with the wait until a sign-in is accepted again, rounded up to whole minutes (seconds under one). */
export function loginLockedMessage(retryAfterSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  if (seconds < 60) return `Muitas tentativas de login. Tente novamente em ${countOf(seconds, 'segundo', 'segundos')}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Muitas tentativas de login. Tente novamente em ${countOf(minutes, 'minuto', 'minutos')}.`;
}

export type ApiErrorBody = {
  error: { code: string; message: string; fields?: Record<string, string>; details?: Record<string, unknown> };
};

/** Success and informational texts of the spec's catalogue. */
export const MESSAGES = {
  welcome: (name: string) => `Bem-vindo, ${name}!`,
  logout: 'Logout realizado com sucesso',
  loading: 'Carregando...',
  signingIn: 'Entrando...',
  meritusTransferred: (amount: number, recipient: string) => `${formatMeritus(amount)} ${plural(amount, 'transferido', 'transferidos')} para ${recipient}!`,
  estelecasTransferred: (amount: number, recipient: string) => `${formatEstelecas(amount)} ${plural(amount, 'transferida', 'transferidas')} para ${recipient}`,
  defaultTransferDescription: (sender: string, recipient: string) => `Transferência de ${sender} para ${recipient}`,
  defaultEstelecasTransferDescription: (recipient: string) => `Transferência de Estelecas para ${recipient}`,
} as const;
