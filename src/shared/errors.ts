import { countOf, formatAmount, formatEstelecas, formatMeritus, formatNumber, plural } from './format.ts';
import type { Currency } from './ledger-types.ts';
import { CORE_ERROR_MESSAGES, MESSAGES as CORE_MESSAGES } from './messages-core.ts';
import { ARCHIVE_MAX_PIXELS, BULK_MAX_STUDENTS, PHOTO_MAX_PIXELS, RANKING_PAGE } from './constants.ts';

/** Success and informational texts of the spec's catalogue: the first load's (messages-core.ts) and the screens'. */
export const MESSAGES = {
  ...CORE_MESSAGES,
  meritusTransferred: (amount: number, recipient: string) =>
    `${formatMeritus(amount)} ${plural(amount, 'transferido', 'transferidos')} para ${recipient}!`,
  estelecasTransferred: (amount: number, recipient: string) =>
    `${formatEstelecas(amount)} ${plural(amount, 'transferida', 'transferidas')} para ${recipient}`,
  defaultTransferDescription: (sender: string, recipient: string) => `Transferência de ${sender} para ${recipient}`,
  defaultEstelecasTransferDescription: (recipient: string) => `Transferência de Estelecas para ${recipient}`,
  /** Operações em Tempo Real: the summary cards sum the operations listed, the newest ones. */
  liveSummaryTitle: (listed: number) =>
    listed === 0
      ? 'Resumo das operações listadas'
      : listed === 1
        ? 'Resumo da operação listada'
        : `Resumo das ${formatNumber(listed)} operações mais recentes`,
} as const;

/**
 * Stable error codes shared by server and client. The server sends the code and
 * the pt-BR message, which may carry particulars (how long to wait); the client
 * shows the server's message, or the one it knows for the code when there is none.
 */
export const ERROR_MESSAGES = {
  ...CORE_ERROR_MESSAGES,
  missing_fields: 'Preencha todos os campos obrigatórios',
  missing_fields_short: 'Preencha todos os campos',
  bulk_too_many_students: `Selecione no máximo ${formatNumber(BULK_MAX_STUDENTS)} estudantes por operação`,
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
  idempotency_key_invalid: 'Chave Idempotency-Key inválida: envie uma só, de 8 a 100 letras, números, - ou _',
  unsupported_media_type: 'Formato dos dados não aceito por esta rota (Content-Type)',
  transfer_failed: 'Erro ao realizar transferência',
  student_id_taken: 'Já existe um estudante com esta matrícula',
  email_taken: 'Este email já está em uso',
  invalid_grade: 'Selecione uma turma válida',
  invalid_photo_type: 'Formato não suportado. Use JPG, PNG, GIF ou WebP.',
  photo_too_large: 'Arquivo muito grande. Máximo 5MB.',
  photo_too_many_pixels:
    `Imagem grande demais: no máximo ${formatNumber(PHOTO_MAX_PIXELS / 1_000_000)} megapixels (por exemplo, 6000 × 6000). ` +
    'Reduza-a e envie de novo.',
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
  tag_like_own: 'Você não pode curtir a sua própria tag',
  invalid_email: 'Email inválido',
  invalid_birth_date: 'Data de nascimento inválida',
  invalid_initial_meritus: 'O Méritus inicial deve ser um número inteiro maior ou igual a zero',
  password_too_short: 'A senha deve ter pelo menos 6 caracteres',
  invalid_tag_days: 'A duração deve ser um número inteiro de 1 a 365 dias',
  invalid_tag_expiry: 'Data de expiração inválida (no máximo 365 dias a partir de hoje)',
  report_invalid_period:
    'Período inválido. Escolha Hoje, 7 dias, 30 dias, Este mês, Bimestre, Ano letivo, Personalizado ou um período do ano letivo.',
  report_invalid_date: 'Data inválida. Use o formato aaaa-mm-dd com uma data real.',
  report_dates_required: 'Informe a data de início e a data de fim do período personalizado',
  report_from_after_to: 'A data de início deve ser anterior ou igual à data de fim',
  report_range_too_long: 'O período pode ter no máximo 366 dias',
  report_unknown_turma: 'Turma desconhecida',
  report_too_many_turmas: 'Escolha no máximo 100 turmas',
  report_unknown_table: 'Tabela de relatório desconhecida',
  report_unknown_format: 'Formato de exportação inválido. Use csv ou xlsx.',
  report_turma_required: 'Escolha uma turma para este documento',
  report_invalid_top_count: 'Escolha de 1 a 10 alunos para os certificados',
  report_no_top_students: 'Nenhum aluno ganhou Méritus no período escolhido: não há destaques para certificar',
  file_missing: 'Nenhum arquivo selecionado',
  file_empty: 'O arquivo está vazio',
  import_too_large: 'Arquivo muito grande. Máximo 2MB.',
  import_no_header: 'Cabeçalho não reconhecido: o arquivo precisa das colunas matrícula e nome',
  import_not_csv: 'Formato não aceito: envie uma planilha .xlsx ou um CSV UTF-8',
  import_xlsx_malformed: 'Planilha .xlsx corrompida ou incompleta: salve-a de novo no Excel (.xlsx ou CSV UTF-8) e envie outra vez',
  import_xlsx_too_big: 'Planilha grande demais (mais de 12 MB descompactada): apague colunas e abas sem uso ou divida-a em partes',
  import_malformed: 'O arquivo tem aspas (") sem par: corrija a linha indicada ou salve a planilha de novo como CSV',
  import_empty: 'O arquivo não tem nenhuma linha de aluno',
  import_too_many_rows: 'O arquivo tem mais de 5.000 linhas; divida-o em partes menores',
  import_nothing_valid: 'Nenhuma linha válida para importar',
  search_too_long: 'A busca deve ter no máximo 100 caracteres',
  ranking_page_invalid: `A página do ranking deve ser um número inteiro de 0 a ${formatNumber(RANKING_PAGE.maxPage)}`,
  ranking_size_invalid: `O tamanho da página do ranking deve ser um número inteiro de 1 a ${RANKING_PAGE.maxSize}`,
  ranking_around_invalid: 'Use around=me, sem page, para ver a página da sua posição no ranking',
  ranking_no_own_row: 'Somente estudantes têm uma posição própria no ranking',
  ranking_turma_not_own: 'No ranking, escolha a sua turma ou a escola toda',
  ranking_by_invalid: 'Escolha o ranking pelo saldo (by=balance) ou pelos Méritus ganhos no período (by=earned)',
  ranking_balance_now: 'O saldo é sempre o de hoje: para um ano letivo ou período, escolha os Méritus ganhos (by=earned)',
  ranking_hide_not_allowed: 'A escola não permite que estudantes deixem de aparecer no ranking',
  invalid_page: 'Página inválida: peça a partir da página 1, com até 100 estudantes por página',
  live_streams_full: 'Muitas abas do portal abertas nesta sessão: feche algumas para voltar a receber as atualizações ao vivo',
  live_streams_account_full:
    'Muitas abas do portal abertas nesta conta, somando todos os aparelhos: feche algumas para voltar a receber as atualizações ao vivo',
  archive_image_not_found: 'Imagem não encontrada',
  archive_file_empty: 'Arquivo vazio',
  archive_file_too_large: 'Arquivo muito grande (máx. 50MB)',
  archive_type_not_allowed: 'Tipo não permitido',
  archive_file_name_invalid: 'O arquivo precisa de um nome (até 255 caracteres)',
  archive_too_many_files: 'Envie no máximo 50 arquivos por vez',
  archive_upload_failed: 'Nenhum arquivo foi enviado',
  archive_save_failed: 'Erro ao salvar o arquivo',
  storage_full:
    'Espaço em disco insuficiente no servidor: nada foi salvo. Avise o responsável pelo sistema para liberar espaço e tente de novo.',
  archive_invalid_category: 'Categoria inválida',
  archive_invalid_access_level: 'Nível de acesso inválido',
  archive_invalid_tags: 'Tags inválidas: no máximo 20, com até 40 caracteres cada',
  archive_description_too_long: 'A descrição deve ter no máximo 1.000 caracteres',
  archive_album_too_long: 'O nome do álbum deve ter no máximo 100 caracteres',
  archive_bulk_empty: 'Selecione ao menos uma imagem',
  archive_bulk_too_many: 'Selecione no máximo 500 imagens por vez',
  archive_not_own_image: 'Você só pode editar ou excluir as imagens que você enviou',
  archive_share_unavailable: 'Somente imagens públicas e ativas podem ser compartilhadas',
  archive_share_not_found: 'Link de compartilhamento inválido ou expirado',
  archive_photo_unavailable: 'Somente imagens ativas, públicas ou restritas, podem ser foto de estudante',
  archive_metadata_not_removed: 'Não foi possível ler esta imagem para remover a localização e os dados pessoais',
  archive_metadata_too_many_pixels:
    'Imagem grande demais para remover a localização e os dados pessoais: ' +
    `no máximo ${formatNumber(ARCHIVE_MAX_PIXELS / 1_000_000)} megapixels. Reduza-a e envie de novo.`,
  school_name_required: 'Informe o nome da escola',
  school_name_too_long: 'O nome da escola deve ter no máximo 80 caracteres',
  invalid_time_zone: 'Selecione um fuso horário válido',
  invalid_meritus_goal: 'A meta de Méritus deve ser um número inteiro de 1 a 1.000.000',
  invalid_bar_scale: 'A escala da barra de Estelecas deve ser um número inteiro de 1 a 1.000.000',
  invalid_achievement_thresholds: 'Os marcos das conquistas devem ser números inteiros, o segundo maior que o primeiro',
  invalid_max_operation: 'O máximo por operação deve ser um número inteiro de 1 a 100.000',
  invalid_daily_cap: 'O limite diário deve ser um número inteiro de 1 a 1.000.000 (vazio: sem limite)',
  invalid_min_interval: 'O intervalo mínimo deve ser um número inteiro de 1 a 86.400 segundos (vazio: sem intervalo)',
  transfer_daily_cap: 'Limite diário de transferências atingido',
  transfer_too_soon: 'Aguarde um pouco antes de fazer outra transferência',
  award_budget_exceeded: 'Limite semanal de concessão atingido',
  author_not_found: 'Membro da equipe não encontrado',
  turma_name_required: 'Informe o nome da turma',
  turma_name_too_long: 'O nome da turma deve ter no máximo 40 caracteres',
  turma_exists: 'Já existe uma turma com este nome',
  turma_not_found: 'Turma não encontrada',
  turma_retired: 'Esta turma está desativada e não recebe novos estudantes',
  turma_last_active: 'Mantenha pelo menos uma turma ativa',
  turma_has_students: 'Esta turma tem ou teve estudantes, que ficam no histórico dela: desative-a em vez de apagar',
  turma_has_store_items: 'Há itens da Loja só para esta turma: tire-a desses itens antes de apagar',
  turma_has_history: 'Esta turma tem operações no histórico: desative-a em vez de apagar',
  turma_sums_pending: 'Esta turma teve operações há pouco: tente apagar de novo em alguns segundos',
  staff_not_found: 'Membro da equipe não encontrado',
  staff_last_coordinator: 'A escola precisa de pelo menos uma coordenação ativa',
  staff_self: 'Você não pode desativar a si mesmo nem mudar o próprio papel',
  invalid_staff_role: 'Escolha o papel: Coordenação ou Professor',
  staff_turmas_invalid: 'Escolha somente turmas ativas da escola',
  invalid_staff_budget: 'O limite semanal deve ser um número inteiro de 0 a 1.000.000 (vazio: sem limite)',
  admin_name_required: 'Informe o nome da pessoa',
  admin_password_too_short: 'A senha do administrador deve ter pelo menos 8 caracteres',
  entry_not_found: 'Operação não encontrada',
  reversal_reason_required: 'Informe o motivo do estorno',
  reversal_reason_too_long: 'O motivo do estorno deve ter no máximo 200 caracteres',
  already_reversed: 'Esta operação já foi estornada',
  reversal_not_reversible: 'Um estorno não pode ser estornado',
  reversal_store_entry:
    'Operações da Loja não são estornadas: o pedido é recusado ou cancelado, e a meta da turma devolve as contribuições',
  reversal_not_own: 'Você só pode estornar operações feitas por você nas últimas 24 horas',
  reversal_transfer_coordination: 'Somente a coordenação pode estornar transferências entre alunos',
  student_outside_turmas: 'Este estudante não é de uma das suas turmas',
  turma_outside_turmas: 'Esta turma não é uma das suas turmas',
  store_item_not_found: 'Item não encontrado na loja',
  store_order_not_found: 'Pedido não encontrado',
  store_name_required: 'Informe o nome do item',
  store_name_too_long: 'O nome do item deve ter no máximo 80 caracteres',
  store_description_too_long: 'A descrição deve ter no máximo 500 caracteres',
  store_image_not_found: 'Imagem não encontrada no Data-Base',
  store_price_invalid: 'Informe um preço válido (número inteiro maior que zero)',
  store_stock_invalid: 'O estoque deve ser um número inteiro de 0 a 100.000 (vazio: ilimitado)',
  store_stock_below_orders: 'O estoque não pode ser menor que as unidades já pedidas',
  store_limit_invalid: 'O limite por aluno deve ser um número inteiro de 1 a 1.000 por semana, mês, ano letivo ou sempre',
  store_invalid_date: 'Informe uma data válida',
  store_period_order: 'A data de início deve ser anterior ou igual à data de fim',
  store_turmas_invalid: 'Escolha turmas da escola (ou todas)',
  store_category_invalid: 'Escolha a categoria: Privilégios, Materiais, Experiências ou Turma',
  store_goal_invalid: 'Informe uma meta válida (número inteiro maior que zero)',
  store_deadline_required: 'Informe o prazo da meta da turma',
  store_goal_fields: 'Uma meta da turma tem meta e prazo, sem preço, estoque nem limite; os outros itens têm preço, sem meta nem prazo',
  store_too_many_items: 'Limite de 500 itens na loja atingido. Desative ou exclua um para criar outro.',
  store_sold_out: 'Esgotado',
  store_limit_reached: 'Limite por aluno atingido',
  store_unavailable: 'Item indisponível',
  store_not_a_goal: 'Este item não é uma meta da turma',
  store_is_a_goal: 'Uma meta da turma recebe contribuições, não pedidos',
  store_goal_reached: 'Esta meta já foi atingida',
  store_goal_exceeds: 'A contribuição passa do que falta para a meta',
  store_goal_below_raised: 'A meta deve ficar acima do que já foi arrecadado',
  store_goal_locked: 'Uma meta que já recebeu contribuições não muda de moeda nem deixa de ser meta da turma',
  store_order_not_pending: 'Este pedido não está mais pendente',
  store_refuse_reason_required: 'Informe o motivo da recusa',
  store_refuse_reason_too_long: 'O motivo da recusa deve ter no máximo 200 caracteres',
  store_deliver_too_many: 'Entregue no máximo 500 pedidos por vez',
  // The school year and its rollover (issue 38, decision 031).
  school_year_name_required: 'Informe o nome do ano letivo',
  school_year_name_too_long: 'O nome do ano letivo deve ter no máximo 60 caracteres',
  school_year_invalid_date: 'Informe uma data válida',
  school_year_dates_order: 'O ano letivo deve terminar depois de começar',
  school_year_period_kind: 'Escolha bimestres ou trimestres',
  school_year_period_count: 'Um ano letivo em bimestres tem 4 períodos; em trimestres, 3',
  school_period_dates_order: 'Cada período deve terminar depois de começar',
  school_period_outside_year: 'Cada período deve ficar dentro das datas do ano letivo',
  school_period_overlap: 'Os períodos não podem se sobrepor: cada um começa depois do fim do anterior',
  school_year_overlap: 'As datas se sobrepõem às de outro ano letivo',
  school_year_name_taken: 'Já existe um ano letivo com esse nome',
  school_year_filter_invalid: 'Ano letivo inválido. Escolha um ano letivo da lista.',
  school_period_filter_invalid: 'Período inválido. Escolha um período do ano letivo.',
  school_year_not_found: 'Ano letivo não encontrado',
  school_period_not_found: 'Período não encontrado',
  school_year_none_current: 'Nenhum ano letivo contém a data de hoje: cadastre-o em Configurações › Ano letivo',
  school_year_period_mismatch: 'Este período não pertence ao ano letivo escolhido',
  school_year_closed: 'Este ano letivo já foi encerrado: suas datas não mudam mais',
  rollover_destination_invalid: 'Destino inválido: escolha uma turma ativa da escola, formados ou saída',
  rollover_balances_required: 'Escolha manter ou encerrar os saldos de Méritus e os de Estelecas',
  rollover_no_year: 'Nenhum ano letivo para encerrar: cadastre o ano letivo em Configurações › Ano letivo',
  rollover_stale: 'Os dados mudaram desde a prévia: gere a prévia de novo antes de aplicar',
  rollover_running: 'Uma virada do ano já está em andamento: aguarde que termine',
  rollover_backup_failed: 'A cópia de segurança automática falhou: nada foi alterado',
  erase_confirmation_mismatch: 'Digite o nome do estudante, como aparece acima, para confirmar',
  erase_reason_required: 'Informe o motivo da exclusão',
  erase_reason_too_long: 'O motivo deve ter no máximo 300 caracteres',
  student_already_erased: 'Os dados pessoais deste estudante já foram excluídos',
  privacy_contact_too_long: 'O contato deve ter no máximo 500 caracteres',
  invalid_retention_months: 'Informe de 6 a 120 meses, ou deixe em branco para nunca anonimizar',
  access_cards_choice: 'Escolha uma turma ou os alunos dos cartões',
  access_cards_too_many: 'Imprima no máximo 300 cartões por vez',
  access_cards_none: 'Nenhum aluno para os cartões: a turma não tem estudantes',
  current_password_wrong: 'Senha atual incorreta',
  password_unchanged: 'A nova senha deve ser diferente da atual',
  password_change_required: 'Troque a senha que você recebeu antes de continuar: vá em Alterar senha.',
  receipt_not_found: 'Comprovante não encontrado',
  hall_of_fame_year_not_found: 'Este ano letivo não está no Hall da Fama: escolha um ano encerrado',
  honour_not_found: 'Destaque não encontrado',
  honour_certificate_not_own: 'Você só pode baixar os seus próprios certificados',
  how_to_earn_too_long: 'O texto "Como ganhar" deve ter no máximo 4.000 caracteres',
  guardian_code_invalid: 'Código inválido ou expirado: confira o código da carta ou peça um novo à escola',
  guardian_email_taken: 'Já existe uma conta de responsável com este email: entre com ela e adicione o filho pelo código',
  guardian_already_linked: 'Este estudante já está na sua conta',
  guardian_link_not_found: 'Este responsável não acompanha este estudante',
  family_child_not_found: 'Estudante não encontrado na sua conta',
  mail_disabled: 'O envio de e-mails não está configurado nesta escola.',
  mail_link_invalid: 'Link inválido: abra o link do último email recebido, ou desligue o resumo na área da família.',
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

/** 'import_malformed' with the line (the spreadsheet's row) where the quote without its pair is. */
export function importMalformedMessage(line: number): string {
  return `${ERROR_MESSAGES.import_malformed} (linha ${line}).`;
}

/** 'amount_too_large' with the school's maximum per operation. */
export function amountTooLargeMessage(max: number): string {
  return `O valor máximo por operação é ${formatNumber(max)}`;
}

/**
 * 'transfer_daily_cap' with the school's cap, and what is left of it today when known (the
 * database finds it under the lock; the refusal's record keeps the text without it).
 */
export function dailyCapMessage(cap: number, remaining?: number): string {
  const base = `Limite diário de transferências atingido: até ${formatMeritus(cap)} por dia.`;
  if (remaining === undefined) return base;
  return remaining > 0 ? `${base} Hoje você ainda pode transferir ${formatMeritus(remaining)}.` : `${base} Tente novamente amanhã.`;
}

/** 'insufficient_balance' of a reversal, naming what is missing: the student no longer holds what they received. */
export function reversalShortMessage(currency: Currency, name: string, balance: number, amount: number): string {
  const [has, needs, missing] = [balance, amount, amount - balance].map((value) => formatAmount(currency, value));
  return `Saldo insuficiente: ${name} tem ${has} e o estorno precisa de ${needs} (faltam ${missing}).`;
}

/** 'transfer_too_soon' with the school's minimum interval between two transfers of a student. */
export function tooSoonMessage(intervalSeconds: number): string {
  const wait =
    intervalSeconds % 3600 === 0
      ? countOf(intervalSeconds / 3600, 'hora', 'horas')
      : intervalSeconds % 60 === 0
        ? countOf(intervalSeconds / 60, 'minuto', 'minutos')
        : countOf(intervalSeconds, 'segundo', 'segundos');
  return `Aguarde ${wait} entre uma transferência e outra.`;
}

export type ApiErrorBody = {
  error: { code: string; message: string; fields?: Record<string, string>; details?: Record<string, unknown> };
};
