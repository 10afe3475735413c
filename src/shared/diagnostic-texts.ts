import { countOf, formatMs, formatSize } from './format.ts';

/**
 * The pt-BR messages of Debug & Diagnóstico's checks and fixes, per category: the server
 * writes them into diagnostic_logs from the figures its queries return.
 */
export const DIAGNOSTIC_TEXTS = {
  checkFailed: 'A verificação não pôde ser concluída',
  connectivity: {
    databaseAnswered: (roundTripMs: number) => `Banco de dados respondeu em ${formatMs(roundTripMs)}`,
    listening: (instances: number) => `Conexão de eventos ao vivo (LISTEN) ativa: ${countOf(instances, 'instância', 'instâncias')}`,
    notListening: 'Nenhuma conexão de eventos ao vivo (LISTEN) ativa: as telas não recebem atualizações',
    embeddedEvents: 'Eventos ao vivo no mesmo processo do banco embutido (PGlite)',
    storageReachable: 'Armazenamento de arquivos acessível',
    storageUnreachable: 'Armazenamento de arquivos inacessível',
  },
  administrators: {
    registered: (total: number) => countOf(total, 'administrador cadastrado', 'administradores cadastrados'),
    none: 'Nenhum administrador cadastrado: use Corrigir Administrators',
    complete: 'Todos os administradores têm adminId, name, email, password e role',
    incomplete: (count: number) => countOf(count, 'administrador sem campo obrigatório', 'administradores sem campo obrigatório'),
    emailsUnique: 'Nenhum email de administrador repetido',
    emailsRepeated: (count: number) => `${countOf(count, 'email repetido', 'emails repetidos')} entre administradores`,
    signedInValid: (name: string) => `Administrador conectado válido: ${name}`,
    signedInInvalid: 'O administrador conectado não tem cadastro válido',
  },
  students: {
    /** Removed students keep their ledger rows and balances, so they are checked too; the panel beside it counts only current ones. */
    balancesAgree: (checked: number, removed: number) =>
      `Méritus, Estelecas e total ganho conferem com o razão (${countOf(checked, 'estudante', 'estudantes')}` +
      `${removed > 0 ? `, ${countOf(removed, 'removido', 'removidos')}` : ''})`,
    balancesDisagree: (count: number) => `${countOf(count, 'saldo diverge', 'saldos divergem')} do razão; nada foi alterado`,
    noNegative: 'Nenhum saldo negativo',
    negative: (count: number) => countOf(count, 'saldo negativo', 'saldos negativos'),
    studentIdsUnique: 'Nenhuma matrícula repetida entre estudantes ativos',
    studentIdsRepeated: (count: number) => countOf(count, 'matrícula repetida', 'matrículas repetidas'),
    noExpiredTags: 'Nenhuma tag expirada aguardando remoção',
    expiredTags: (count: number) => countOf(count, 'tag expirada ainda não removida', 'tags expiradas ainda não removidas'),
    photosPresent: 'Todas as fotos armazenadas existem',
    photosMissing: (count: number) => `${countOf(count, 'foto aponta', 'fotos apontam')} para arquivo inexistente`,
  },
  transactions: {
    sumsAgree: 'Invariantes 1 e 2: todo saldo é a soma das suas linhas no razão',
    sumsDisagree: (count: number) =>
      `Invariantes 1 e 2: ${countOf(count, 'saldo difere', 'saldos diferem')} da soma do razão (ver STUDENTS)`,
    nonNegative: 'Invariante 3: nenhum saldo negativo, garantido por restrições CHECK',
    negativePossible: 'Invariante 3: saldo negativo possível ou encontrado',
    conserved: 'Invariante 4: a soma dos saldos muda só por operações de administradores, compras, devoluções e contribuições',
    notConserved: 'Invariante 4: a soma dos saldos difere do saldo das operações de administradores, compras, devoluções e contribuições',
    idempotent: 'Invariante 5: cada chave de idempotência vale uma vez por usuário (chave primária)',
    idempotencyKeyMissing: 'Invariante 5: a chave primária das chaves de idempotência não existe',
    entriesValid: 'Todas as linhas do razão têm valor positivo e partes coerentes com o tipo',
    entriesInvalid: (count: number) => `${countOf(count, 'linha inválida', 'linhas inválidas')} no razão`,
    goalsAgree: 'Metas da turma: o arrecadado de cada uma é a soma das suas contribuições não devolvidas',
    goalsDisagree: (count: number) =>
      `${countOf(count, 'meta da turma difere', 'metas da turma diferem')} da soma das suas contribuições não devolvidas`,
    storeAgrees: 'Loja: cada pedido tem sua compra e, devolvido, uma devolução; estoques e limites conferem com os pedidos',
    storeDisagrees: (count: number) => `Loja: ${countOf(count, 'divergência', 'divergências')} entre pedidos, razão, estoques e limites`,
    noDangling: 'Nenhuma linha do razão aponta para estudante inexistente',
    dangling: 'Linhas do razão apontam para estudantes inexistentes',
    lastWeek: (count: number) => `${countOf(count, 'operação', 'operações')} de Méritus e Estelecas nos últimos 7 dias`,
  },
  auth: {
    staleSessions: (stale: number, minutes: number) =>
      `${countOf(stale, 'sessão expirada', 'sessões expiradas')} há mais de ${minutes} minutos ainda no banco: a limpeza periódica não está rodando`,
    sessions: (open: number, expired: number) =>
      `${countOf(open, 'sessão aberta', 'sessões abertas')}; ${countOf(expired, 'expirada aguardando', 'expiradas aguardando')} a limpeza periódica`,
    noneBlocked: 'Nenhuma conta ou endereço bloqueado por tentativas de login',
    blocked: (accounts: number, addresses: number) =>
      `Bloqueados agora por tentativas de login: ${countOf(accounts, 'conta', 'contas')}, ${countOf(addresses, 'endereço', 'endereços')}`,
  },
  system: {
    migrations: (detail: string) => `Migrações: ${detail}`,
    disk: (path: string, detail: string) => `Disco de ${path}: ${detail}`,
    photoFilesAgree: (files: number) => `Arquivos de foto e registros conferem (${countOf(files, 'arquivo', 'arquivos')})`,
    photoFilesDisagree: (orphans: number, orphanBytes: number, missing: number) =>
      `${countOf(orphans, 'arquivo sem registro', 'arquivos sem registro')} (${formatSize(orphanBytes)}); ` +
      countOf(missing, 'registro sem arquivo', 'registros sem arquivo'),
    noServerErrors: 'Nenhum erro de servidor (5xx) nas últimas 24 horas nesta instância',
    serverErrors: (count: number) =>
      `${countOf(count, 'erro de servidor (5xx) recente', 'erros de servidor (5xx) recentes')} nesta instância`,
  },
  fix: {
    adminCreated: (adminId: string, email: string) => `Administrador padrão criado: ${adminId} (${email})`,
    /** A tag the expired-tags fix would remove, its expiry already written in the school's time zone. */
    expiredTag: (tagName: string, studentName: string, studentId: string, expiredAt: string) =>
      `${tagName} de ${studentName} (${studentId}), expirou em ${expiredAt}`,
    orphanPhoto: (key: string, bytes: number) => `${key} (${formatSize(bytes)})`,
    expiredTagsRemoved: 'Tags expiradas removidas',
    orphanPhotosRemoved: 'Arquivos de foto sem registro removidos',
    applied: (done: string, count: number) => `${done}: ${count}`,
  },
} as const;
