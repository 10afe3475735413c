import { defineRoutes } from './route.ts';

/** The image archive (Data-Base): administrators manage it; its files are served by their image's access level. */
export const archive = defineRoutes(['archive'], {
  list: {
    method: 'GET',
    path: '/api/admin/archive/images',
    access: 'staffArea',
    schemas: (s) => ({ query: s.archiveListQuery, response: { 200: s.archivePage } }),
  },
  summary: {
    method: 'GET',
    path: '/api/admin/archive/summary',
    access: 'staffArea',
    schemas: (s) => ({ response: { 200: s.archiveSummary } }),
  },
  upload: {
    method: 'POST',
    path: '/api/admin/archive/images',
    access: 'staffArea',
    upload: true,
    description: 'Arquivos no campo "files" (até 50 por envio, 50 MB cada) e os campos de texto de archiveUploadFields.',
    schemas: (s) => ({ response: { 200: s.archiveUploadResult } }),
  },
  bulk: {
    method: 'POST',
    path: '/api/admin/archive/images/bulk',
    access: 'staffArea',
    schemas: (s) => ({ body: s.archiveBulkInput, response: { 200: s.archiveBulkResult } }),
  },
  get: {
    method: 'GET',
    path: '/api/admin/archive/images/:id',
    access: 'staffArea',
    schemas: (s) => ({ params: s.archiveIdParam, response: { 200: s.archiveItem } }),
  },
  edit: {
    method: 'PATCH',
    path: '/api/admin/archive/images/:id',
    access: 'staffArea',
    schemas: (s) => ({ params: s.archiveIdParam, body: s.archiveEditInput, response: { 200: s.archiveEditResult } }),
  },
  remove: {
    method: 'DELETE',
    path: '/api/admin/archive/images/:id',
    access: 'staffArea',
    schemas: (s) => ({ params: s.archiveIdParam, response: { 200: s.messageResult } }),
  },
  favourite: {
    method: 'PUT',
    path: '/api/admin/archive/images/:id/favourite',
    access: 'staffArea',
    schemas: (s) => ({ params: s.archiveIdParam, body: s.archiveFavouriteInput, response: { 200: s.archiveFavouriteResult } }),
  },
  copyLink: {
    method: 'POST',
    path: '/api/admin/archive/images/:id/copy-link',
    access: 'staffArea',
    schemas: (s) => ({ params: s.archiveIdParam, response: { 200: s.archiveCounters } }),
  },
  select: {
    method: 'POST',
    path: '/api/admin/archive/images/:id/select',
    access: 'staffArea',
    schemas: (s) => ({ params: s.archiveIdParam, body: s.archiveSelectInput.optional(), response: { 200: s.archiveSelectResult } }),
  },
  share: {
    method: 'POST',
    path: '/api/admin/archive/images/:id/share',
    access: 'staffArea',
    schemas: (s) => ({ params: s.archiveIdParam, response: { 200: s.archiveShareResult } }),
  },
  unshare: {
    method: 'DELETE',
    path: '/api/admin/archive/images/:id/share',
    access: 'staffArea',
    schemas: (s) => ({ params: s.archiveIdParam, response: { 200: s.messageResult } }),
  },
  // Declared public: each answer is decided by the image's access level.
  file: {
    method: 'GET',
    path: '/api/archive/files/:key',
    access: 'public',
    answer: 'file',
    schemas: (s) => ({ params: s.archiveFileParams }),
  },
  fileVariant: {
    method: 'GET',
    path: '/api/archive/files/:key/:variant',
    access: 'public',
    answer: 'file',
    schemas: (s) => ({ params: s.archiveFileParams }),
  },
});
