/**
 * The texts the first load needs (the login route and the session check): transport, session and
 * sign-in errors and the spec's success texts. errors.ts builds the whole catalogue on them; they
 * live apart so the login route's JavaScript does not carry every screen's messages.
 */
export const CORE_ERROR_MESSAGES = {
  bad_request: 'Dados inválidos',
  validation: 'Dados inválidos',
  unauthenticated: 'Sessão expirada. Faça login novamente.',
  /** A request with a session that a reset of the student's password ended. */
  session_password_reset: 'Sua senha foi redefinida. Peça a nova ao professor.',
  forbidden: 'Você não tem permissão para esta ação',
  not_found: 'Recurso não encontrado',
  csrf: 'Requisição de origem não permitida',
  rate_limited: 'Muitas requisições. Aguarde um momento e tente novamente.',
  login_locked: 'Muitas tentativas de login. Tente novamente em 15 minutos.',
  client_throttled: 'Too many requests',
  body_too_large: 'A requisição é grande demais. O limite é 1 MB.',
  invalid_text: 'O texto contém caracteres inválidos',
  internal: 'Erro interno. Tente novamente.',
  service_unavailable: 'Sem conexão com o servidor. Tente novamente em alguns segundos.',
  /** No answer at all (offline, the server down), or a proxy's saying the server is out of reach. */
  network: 'Sem conexão com o servidor. Verifique sua internet e tente de novo em alguns segundos.',
  student_login_failed: 'Matrícula ou senha incorretos',
  admin_login_failed: 'Email ou senha incorretos',
  /** Sign-in with a school account (Google, Microsoft) whose email is not a student's or staff member's, unverified, or of another domain. */
  school_account_unknown: 'Conta não cadastrada na escola',
  /** Sign-in with a school account that did not complete: cancelled, expired, repeated, or the provider did not answer. */
  school_account_failed: 'Não foi possível entrar com a conta da escola. Tente novamente.',
  login_error: 'Erro ao fazer login. Tente novamente.',
  logout_error: 'Erro ao fazer logout.',
} as const;

export type CoreErrorCode = keyof typeof CORE_ERROR_MESSAGES;

export function isCoreErrorCode(value: unknown): value is CoreErrorCode {
  return typeof value === 'string' && Object.hasOwn(CORE_ERROR_MESSAGES, value);
}

/** Success and informational texts of the spec's catalogue that the first load needs; errors.ts's MESSAGES holds them all. */
export const MESSAGES = {
  welcome: (name: string) => `Bem-vindo, ${name}!`,
  logout: 'Logout realizado com sucesso',
  loading: 'Carregando...',
  signingIn: 'Entrando...',
  /** While the client retries a request the server could not serve (503, or no answer at all). */
  reconnecting: 'Sem conexão com o servidor. Tentando novamente…',
  /** A form with unsaved changes that the user tries to close. */
  leaveUnsaved: 'Sair sem salvar? As alterações serão perdidas.',
  keepEditing: 'Continuar editando',
  leaveWithoutSaving: 'Sair sem salvar',
} as const;
