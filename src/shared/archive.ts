import { z } from 'zod';
import { ERROR_MESSAGES } from './errors.ts';
import { countOf, plural } from './format.ts';
import { rowId, textInput } from './validation.ts';
import type { Permission } from './permissions.ts';

/**
 * The image archive (spec 2.7, "Data-Base"): the contract between the server
 * (src/server/modules/archive) and the screen (src/web/features/admin-archive).
 * Additive changes only: the screen is built against these shapes.
 */

/** Largest file the archive takes (spec §9): 50 MB. */
export const ARCHIVE_MAX_FILE_BYTES = 50 * 1024 * 1024;
/** Files one upload request may carry; more are refused before anything is stored. */
export const ARCHIVE_MAX_FILES_PER_UPLOAD = 50;
/** Upload errors the modal lists (spec §9); the API returns every one. */
export const ARCHIVE_ERRORS_SHOWN = 10;
/** Tags shown on a card (grid) and a row (list) before '+N'. */
export const ARCHIVE_TAGS_SHOWN = { grid: 3, list: 5 } as const;
export const ARCHIVE_PAGE_SIZE = { default: 60, max: 200 } as const;
/** The student photo picker reads at most this many images (spec §9). */
export const ARCHIVE_PICKER_LIMIT = 1000;
export const ARCHIVE_MAX_TAGS = 20;
export const ARCHIVE_TAG_MAX_LENGTH = 40;
export const ARCHIVE_BULK_MAX = 500;
/** Longest side of the small thumbnail and of the larger preview, in pixels (WebP, metadata stripped). */
export const ARCHIVE_THUMB_SIDE = 320;
export const ARCHIVE_PREVIEW_SIDE = 1600;

export const ARCHIVE_CATEGORIES = ['perfil', 'banner', 'icone', 'ilustracao', 'documento', 'biblioteca', 'galeria', 'outros'] as const;
export type ArchiveCategory = (typeof ARCHIVE_CATEGORIES)[number];
export const ARCHIVE_CATEGORY_LABELS: Record<ArchiveCategory, string> = {
  perfil: 'Perfil',
  banner: 'Banner',
  icone: 'Ícone',
  ilustracao: 'Ilustração',
  documento: 'Documento',
  biblioteca: 'Biblioteca',
  galeria: 'Galeria',
  outros: 'Outros',
};
/** Label of a category, 'Outros' for anything unknown (spec 2.7). */
export function categoryLabel(category: string | null | undefined): string {
  return ARCHIVE_CATEGORY_LABELS[category as ArchiveCategory] ?? ARCHIVE_CATEGORY_LABELS.outros;
}

/**
 * Who may change an image (edit it, delete it, change it in bulk, revoke its share link): whoever manages the school (the
 * coordination) any image, every other member of the staff only the ones they uploaded. Everyone in the staff sees,
 * downloads, shares and favourites them all.
 */
export function mayChangeArchiveImage(staff: { id: string; permissions: readonly Permission[] }, uploaderId: string): boolean {
  return staff.permissions.includes('manageSchool') || staff.id === uploaderId;
}

/**
 * Who may fetch a file, its thumbnail and its preview: public — anyone with the link
 * (and the share page); restricted — any signed-in user; private and admin —
 * administrators only. An inactive image is served to administrators only.
 */
export const ARCHIVE_ACCESS_LEVELS = ['public', 'restricted', 'private', 'admin'] as const;
export type ArchiveAccessLevel = (typeof ARCHIVE_ACCESS_LEVELS)[number];
export const ARCHIVE_ACCESS_LABELS: Record<ArchiveAccessLevel, string> = {
  public: 'Público',
  restricted: 'Restrito (usuários conectados)',
  private: 'Privado',
  admin: 'Somente administradores',
};

/** What the screen draws for a file: its thumbnail for images, a type icon for the rest. */
export const ARCHIVE_KINDS = ['image', 'video', 'audio', 'document'] as const;
export type ArchiveKind = (typeof ARCHIVE_KINDS)[number];
export const ARCHIVE_KIND_LABELS: Record<ArchiveKind, string> = { image: 'Imagem', video: 'Vídeo', audio: 'Áudio', document: 'Documento' };

/**
 * Types the archive stores (spec §5), as the server names them after reading the
 * file's bytes; the name and the browser's claim are never trusted.
 */
export const ARCHIVE_MIME_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/svg+xml',
  'image/bmp',
  'image/tiff',
  'image/avif',
  'image/heic',
  'image/heif',
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'video/mp4',
  'video/webm',
  'video/ogg',
  'video/x-msvideo',
  'video/quicktime',
  'audio/mpeg',
  'audio/wav',
  'audio/ogg',
  'audio/aac',
] as const;
export type ArchiveMimeType = (typeof ARCHIVE_MIME_TYPES)[number];
/** The file picker's `accept` (spec §5). */
export const ARCHIVE_ACCEPT = 'image/*,video/*,audio/*,.pdf,.doc,.docx';

export function kindOf(mimeType: string): ArchiveKind {
  if (mimeType.startsWith('image/')) return 'image';
  if (mimeType.startsWith('video/')) return 'video';
  if (mimeType.startsWith('audio/')) return 'audio';
  return 'document';
}

export const ARCHIVE_SORTS = ['date', 'name', 'size', 'usage', 'downloads'] as const;
export type ArchiveSort = (typeof ARCHIVE_SORTS)[number];
export const ARCHIVE_SORT_LABELS: Record<ArchiveSort, string> = {
  date: 'Data',
  name: 'Nome',
  size: 'Tamanho',
  usage: 'Usos',
  downloads: 'Downloads',
};
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** Uploader id of records whose uploader is not known (spec: default 'unknown'). */
export const UNKNOWN_UPLOADER = 'unknown';

/** Tags as the forms type them: split on commas, trimmed, empties and repeats dropped (spec §5). */
export function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((tag) => tag.trim())
        .filter((tag) => tag !== ''),
    ),
  ];
}

const flagQuery = z.enum(['true', 'false'], { error: 'validation' }).transform((value) => value === 'true');

/**
 * GET /api/admin/archive/images — filtering, sorting and paging happen on the server.
 * `q` matches file name, description, tags and uploader (name or email), accents and case folded.
 * Paging: pass the previous page's `nextCursor`; the first page's `total` counts every match.
 */
export const archiveListQuery = z.object({
  q: textInput({ max: 100, maxError: 'search_too_long' }).optional(),
  featured: flagQuery.optional(),
  /** true: only public images; false: only non-public ones. */
  public: flagQuery.optional(),
  active: flagQuery.optional(),
  favourites: flagQuery.optional(),
  category: z.enum(ARCHIVE_CATEGORIES, { error: 'archive_invalid_category' }).optional(),
  /** An uploader id from the facets (an administrator's id or 'unknown'). */
  uploader: textInput({ max: 100 }).optional(),
  accessLevel: z.enum(ARCHIVE_ACCESS_LEVELS, { error: 'archive_invalid_access_level' }).optional(),
  kind: z.enum(ARCHIVE_KINDS, { error: 'validation' }).optional(),
  albumId: textInput({ max: 100 }).optional(),
  sort: z.enum(ARCHIVE_SORTS, { error: 'validation' }).default('date'),
  order: z.enum(SORT_ORDERS, { error: 'validation' }).default('desc'),
  limit: z.coerce.number({ error: 'validation' }).int().min(1).max(ARCHIVE_PAGE_SIZE.max).default(ARCHIVE_PAGE_SIZE.default),
  /** Opaque; the server refuses one it did not write (400). */
  cursor: textInput({ max: 300, trim: false }).optional(),
});
export type ArchiveListQuery = z.input<typeof archiveListQuery>;

export const archiveUploader = z.object({
  /** An administrator's id, or 'unknown'. */
  id: z.string(),
  /** Null when unknown: the screen shows the email, else 'Desconhecido'. */
  name: z.string().nullable(),
  email: z.string().nullable(),
});
export type ArchiveUploader = z.infer<typeof archiveUploader>;

/** One record, as cards, rows and the Details modal show it. */
export const archiveItem = z.object({
  id: z.uuid(),
  fileName: z.string(),
  /** The file itself (served by access level); `downloadUrl` adds Content-Disposition and counts the download. */
  fileUrl: z.string(),
  downloadUrl: z.string(),
  /** Small WebP (images, including SVG rasterised and HEIC/HEIF); null for other kinds or an image that could not be decoded. */
  thumbnailUrl: z.string().nullable(),
  /** Larger WebP for the Details modal; null like the thumbnail. */
  previewUrl: z.string().nullable(),
  mimeType: z.string(),
  kind: z.enum(ARCHIVE_KINDS),
  /** Bytes (shown in base 1024). */
  fileSize: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  description: z.string(),
  category: z.enum(ARCHIVE_CATEGORIES),
  tags: z.array(z.string()),
  albumId: z.string().nullable(),
  albumName: z.string().nullable(),
  accessLevel: z.enum(ARCHIVE_ACCESS_LEVELS),
  /** accessLevel === 'public' (kept in step by the server; the 'Privado' badge shows when false). */
  isPublic: z.boolean(),
  isActive: z.boolean(),
  isFeatured: z.boolean(),
  /** Favourite of the administrator asking. */
  isFavourite: z.boolean(),
  usageCount: z.number().int(),
  downloadCount: z.number().int(),
  lastAccessedAt: z.string().nullable(),
  uploader: archiveUploader,
  createdAt: z.string(),
  updatedAt: z.string(),
  /** `/share/image/{token}` while the image is public, active and its link not revoked; else null. */
  shareUrl: z.string().nullable(),
});
export type ArchiveItem = z.infer<typeof archiveItem>;

export const archivePage = z.object({
  items: z.array(archiveItem),
  nextCursor: z.string().nullable(),
  /**
   * Matches of the whole query, not only this page; null on a page asked with a cursor (the first page's count holds,
   * and is not paid again on every scroll).
   */
  total: z.number().int().nullable(),
});
export type ArchivePage = z.infer<typeof archivePage>;

/** The seven tiles, over the whole archive (not the page in view). */
export const archiveStats = z.object({
  total: z.number().int(),
  active: z.number().int(),
  public: z.number().int(),
  featured: z.number().int(),
  usage: z.number().int(),
  downloads: z.number().int(),
  /** Bytes. */
  totalSize: z.number().int(),
});
export type ArchiveStats = z.infer<typeof archiveStats>;

/** Counts for the Filtros panel, over the whole archive. */
export const archiveFacets = z.object({
  categories: z.array(z.object({ category: z.enum(ARCHIVE_CATEGORIES), count: z.number().int() })),
  uploaders: z.array(archiveUploader.extend({ count: z.number().int() })),
  albums: z.array(z.object({ albumId: z.string(), albumName: z.string(), count: z.number().int() })),
});
export type ArchiveFacets = z.infer<typeof archiveFacets>;

/** GET /api/admin/archive/summary: tiles and filter counts in one call. */
export const archiveSummary = z.object({ stats: archiveStats, facets: archiveFacets });
export type ArchiveSummary = z.infer<typeof archiveSummary>;

const tagsInput = z
  .array(textInput({ max: ARCHIVE_TAG_MAX_LENGTH, maxError: 'archive_invalid_tags' }), { error: 'archive_invalid_tags' })
  .max(ARCHIVE_MAX_TAGS, { error: 'archive_invalid_tags' })
  .transform((tags) => [...new Set(tags.filter((tag) => tag !== ''))]);
const descriptionInput = textInput({ max: 1000, maxError: 'archive_description_too_long' });
/** '' clears the album. */
const albumNameInput = textInput({ max: 100, maxError: 'archive_album_too_long' });
const categoryInput = z.enum(ARCHIVE_CATEGORIES, { error: 'archive_invalid_category' });
const accessLevelInput = z.enum(ARCHIVE_ACCESS_LEVELS, { error: 'archive_invalid_access_level' });

/**
 * PATCH /api/admin/archive/images/:id — 'Editar Imagem'. Every field optional. `accessLevel` and
 * `isPublic` are one fact: accessLevel wins when both are sent; isPublic: true sets
 * 'public', isPublic: false on a public image sets 'private'.
 */
export const archiveEditInput = z.object({
  description: descriptionInput.optional(),
  category: categoryInput.optional(),
  tags: tagsInput.optional(),
  albumName: albumNameInput.optional(),
  accessLevel: accessLevelInput.optional(),
  isActive: z.boolean({ error: 'validation' }).optional(),
  isPublic: z.boolean({ error: 'validation' }).optional(),
  isFeatured: z.boolean({ error: 'validation' }).optional(),
});
export type ArchiveEditInput = z.input<typeof archiveEditInput>;
/** PATCH answer: 'Imagem atualizada com sucesso!' and the record as saved. */
export const archiveEditResult = z.object({ message: z.string(), item: archiveItem });
export type ArchiveEditResult = z.infer<typeof archiveEditResult>;

/**
 * The text fields of an upload (multipart/form-data, before or after the files; the
 * same for every file of the request). Defaults are the spec's upload form state.
 * `tags` is the comma text the form shows.
 */
export const archiveUploadFields = z.object({
  description: descriptionInput.default(''),
  tags: textInput({ max: 1000, maxError: 'archive_invalid_tags' }).default('').transform(parseTags).pipe(tagsInput),
  category: categoryInput.default('galeria'),
  accessLevel: accessLevelInput.optional(),
  isPublic: flagQuery.optional(),
  isFeatured: flagQuery.default(false),
  albumName: albumNameInput.default(''),
});
export type ArchiveUploadFields = z.input<typeof archiveUploadFields>;
/** Form defaults of the Upload modal (spec §3). */
export const ARCHIVE_UPLOAD_DEFAULTS = {
  description: '',
  tags: '',
  category: 'galeria',
  isPublic: true,
  isFeatured: false,
  accessLevel: 'public',
  albumName: '',
} as const satisfies { category: ArchiveCategory; accessLevel: ArchiveAccessLevel; [key: string]: unknown };

/** One file of an upload: stored (or found already stored), or refused with its reason in pt-BR. */
export const archiveUploadFileResult = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    fileName: z.string(),
    /** The same bytes were already in the archive: `item` is that record, nothing new was stored. */
    duplicate: z.boolean(),
    item: archiveItem,
  }),
  z.object({
    ok: z.literal(false),
    /** As the browser sent it (cut to 255 characters). */
    fileName: z.string(),
    code: z.string(),
    /** pt-BR, e.g. 'Arquivo vazio'; the modal shows '{file}: {message}'. */
    message: z.string(),
  }),
]);
export type ArchiveUploadFileResult = z.infer<typeof archiveUploadFileResult>;

/**
 * POST /api/admin/archive/images answer: 200 when at least one file was stored (or found);
 * when every file was refused, a 400 'archive_upload_failed' whose `error.details` has
 * this same shape. `results` holds every file in the order sent (no cap).
 */
export const archiveUploadResult = z.object({
  /** '{n} arquivo(s) enviado(s) com sucesso!', plus '{n} erro(s) no upload' when some failed. */
  message: z.string(),
  uploaded: z.number().int(),
  failed: z.number().int(),
  results: z.array(archiveUploadFileResult),
});
export type ArchiveUploadResult = z.infer<typeof archiveUploadResult>;

const idsInput = z
  .array(rowId({ error: 'archive_image_not_found' }), { error: 'archive_bulk_empty' })
  .min(1, { error: 'archive_bulk_empty' })
  .max(ARCHIVE_BULK_MAX, { error: 'archive_bulk_too_many' });

/** POST /api/admin/archive/images/bulk — one action on several images. */
export const archiveBulkInput = z.discriminatedUnion(
  'action',
  [
    z.strictObject({ action: z.literal('delete'), ids: idsInput }),
    z.strictObject({ action: z.literal('category'), ids: idsInput, category: categoryInput }),
    z.strictObject({ action: z.literal('accessLevel'), ids: idsInput, accessLevel: accessLevelInput }),
    /** albumName '' takes the images out of their album. */
    z.strictObject({ action: z.literal('album'), ids: idsInput, albumName: albumNameInput }),
  ],
  { error: 'validation' },
);
export type ArchiveBulkInput = z.input<typeof archiveBulkInput>;
export const archiveBulkResult = z.object({ message: z.string(), count: z.number().int() });
export type ArchiveBulkResult = z.infer<typeof archiveBulkResult>;

export const archiveIdParam = z.object({ id: rowId({ error: 'archive_image_not_found' }) });

/**
 * A file of the archive: its key, and a variant (thumb, preview, download). Any variant name reaches the route, so an
 * unknown one is a missing file (404) like any other.
 */
export const archiveFileParams = z.object({ key: z.string().max(64), variant: z.string().max(20).optional() });

/** PUT /api/admin/archive/images/:id/favourite. */
export const archiveFavouriteInput = z.object({ favourite: z.boolean({ error: 'validation' }) });
export const archiveFavouriteResult = z.object({ favourite: z.boolean(), message: z.string() });
export type ArchiveFavouriteResult = z.infer<typeof archiveFavouriteResult>;

/** The counters after POST /api/admin/archive/images/:id/copy-link (usageCount + 1, lastAccessedAt now). */
export const archiveCounters = z.object({
  usageCount: z.number().int(),
  downloadCount: z.number().int(),
  lastAccessedAt: z.string().nullable(),
});
export type ArchiveCounters = z.infer<typeof archiveCounters>;

/**
 * POST /api/admin/archive/images/:id/select — 'Selecionar Imagem para Cadastro'. With `studentId` (the
 * student's uuid) the student's photo becomes the image at once (audited); without it the
 * answer's `photoUrl` goes into the student form's `photo`. Either way usageCount + 1.
 * Only active public or restricted images can be a photo (students must be able to see it).
 */
export const archiveSelectInput = z.object({ studentId: rowId({ error: 'student_not_found' }).optional() });
export const archiveSelectResult = archiveCounters.extend({
  /** The address to store as the student's photo (the image's preview). */
  photoUrl: z.string(),
  message: z.string(),
});
export type ArchiveSelectResult = z.infer<typeof archiveSelectResult>;

/** POST /api/admin/archive/images/:id/share: the link (made once, kept until revoked). DELETE revokes it. */
export const archiveShareResult = z.object({ shareUrl: z.string(), message: z.string() });
export type ArchiveShareResult = z.infer<typeof archiveShareResult>;

/**
 * The archive's routes are in contract/archive.ts. File URLs come in the items; never build them.
 * Picker tabs: Fotos de Perfil = kind=image, Banners = category=banner, Todas = no filter.
 */

/** The page a share link opens (outside the API, no session needed). */
export const sharePagePath = (token: string) => `/share/image/${token}`;

/** An archive image's preview or thumbnail address, as a student photo picked from the archive stores it. */
export const ARCHIVE_PHOTO_URL = /^\/api\/archive\/files\/[A-Za-z0-9_-]{32}\/(preview|thumb)$/;

/** The multipart field name of each file. */
export const ARCHIVE_UPLOAD_FILE_FIELD = 'files';

/** The screen's texts (spec 2.7 and §8). */
export const ARCHIVE_TEXTS = {
  title: 'Data-Base',
  loading: 'Carregando galeria...',
  emptyFilteredTitle: 'Nenhuma imagem encontrada',
  emptyFilteredHint: 'Tente ajustar os filtros de busca',
  emptyTitle: 'Galeria vazia',
  emptyHint: 'Comece fazendo upload de suas primeiras imagens',
  emptyAction: 'Fazer Upload',
  dropHere: 'Solte os arquivos aqui para fazer upload',
  selectForStudent: 'Selecionar para Estudante',
  refresh: 'Atualizar',
  upload: 'Upload',
  send: 'Selecionar e Enviar',
  sending: 'Enviando...',
  cancel: 'Cancelar',
  wait: 'Aguarde...',
  save: 'Salvar Alterações',
  editTitle: 'Editar Imagem',
  shareTitle: 'Compartilhar Imagem',
  pickerTitle: 'Selecionar Imagem para Cadastro',
  pickerTabs: { profile: 'Fotos de Perfil', banner: 'Banners', all: 'Todas' },
  pickerSelected: 'Imagem Selecionada',
  pickerUrlCopied: 'URL copiada para área de transferência',
  activeCheckbox: 'Imagem ativa',
  publicCheckbox: 'Pública',
  featuredCheckbox: 'Em destaque',
  statusActive: 'Ativo',
  statusInactive: 'Inativo',
  statusPublic: 'Público',
  statusPrivate: 'Privado',
  statusFeatured: 'Destaque',
  uploaderUnknown: 'Desconhecido',
  stats: {
    total: 'Total',
    active: 'Ativas',
    public: 'Públicas',
    featured: 'Destaque',
    usage: 'Usos',
    downloads: 'Downloads',
    totalSize: 'Tamanho',
  },
  filters: 'Filtros',
  clearFilters: 'Limpar filtros',
  noFiles: ERROR_MESSAGES.file_missing,
  allInvalid: (n: number) =>
    `${plural(n, 'O', 'Todos os')} ${countOf(n, 'arquivo', 'arquivos')} ${plural(n, 'é inválido', 'são inválidos')}`,
  someInvalid: (n: number) => `${countOf(n, 'arquivo inválido ignorado', 'arquivos inválidos ignorados')}`,
  uploaded: (n: number) => `${countOf(n, 'arquivo enviado', 'arquivos enviados')} com sucesso!`,
  uploadErrors: (n: number) => `${countOf(n, 'erro', 'erros')} no upload`,
  fileError: (fileName: string, message: string) => `${fileName}: ${message}`,
  /** The same bytes were already stored, maybe under another name: nothing new was stored, so that name is the one to look for. */
  duplicate: (sentName: string, storedName: string) =>
    sentName === storedName ? `${sentName} já existe na Data-Base.` : `${sentName} já existe na Data-Base como ${storedName}.`,
  processingError: (position: number) => `Erro no processamento do arquivo ${position}`,
  invalidFileUrl: (fileName: string) => `${fileName}: URL inválida`,
  uploadError: (reason: string) => `Erro no upload: ${reason}`,
  systemError: (reason: string) => `Erro de sistema: ${reason}`,
  saveError: (fileName: string, reason: string) => `${fileName}: Erro ao salvar (${reason})`,
  unknownError: 'Erro desconhecido',
  loadError: 'Erro ao carregar imagens da database',
  linkCopied: (fileName: string) => `Link copiado: ${fileName}`,
  shareLinkCopied: 'Link compartilhável copiado!',
  clipboardError: 'Erro ao copiar para área de transferência',
  downloadStarted: (fileName: string) => `Download iniciado: ${fileName}`,
  downloadError: 'Erro ao fazer download da imagem',
  updated: 'Imagem atualizada com sucesso!',
  updateError: (reason: string) => `Erro ao atualizar: ${reason}`,
  deleted: 'Imagem excluída com sucesso!',
  deleteError: (reason: string) => `Erro ao excluir: ${reason}`,
  deleteConfirm: (fileName: string) => `Deseja excluir "${fileName}"?`,
  deleteConfirmDetail: 'Esta ação não pode ser desfeita.',
  bulkDeleteConfirm: (n: number) => `Deseja excluir ${countOf(n, 'imagem', 'imagens')}?`,
  bulkDeleted: (n: number) => `${countOf(n, 'imagem excluída', 'imagens excluídas')} com sucesso!`,
  bulkUpdated: (n: number) => `${countOf(n, 'imagem atualizada', 'imagens atualizadas')} com sucesso!`,
  selected: 'Imagem selecionada! URL copiada para área de transferência',
  selectedFallback: (fileName: string) => `Imagem selecionada: ${fileName}`,
  selectError: 'Erro ao selecionar imagem',
  favouriteAdded: 'Adicionado aos favoritos',
  favouriteRemoved: 'Removido dos favoritos',
  shareRevoked: 'Link de compartilhamento revogado',
  shareCreated: 'Link de compartilhamento criado',
  photoSet: (studentName: string) => `Foto de ${studentName} atualizada com sucesso!`,
  /** The default description of an uploaded file (spec §5). */
  defaultDescription: (fileName: string) => `Arquivo: ${fileName}`,
  dimensions: (width: number, height: number) => `${width} × ${height} pixels`,
  /** Share page (server-rendered). */
  sharePageDownload: 'Baixar',
  sharePageTitle: 'Imagem compartilhada',
} as const;
