import { defineRoutes } from './route.ts';

/** The image archive (Data-Base): administrators manage it; its files are served by their image's access level. */
export const archive = defineRoutes(
  { tags: ['archive'], load: async () => ({ archive: await import('../archive.ts'), responses: await import('../responses.ts') }) },
  {
    list: {
      method: 'GET',
      path: '/api/admin/archive/images',
      access: 'admin',
      schemas: ({ archive }) => ({ query: archive.archiveListQuery, response: { 200: archive.archivePage } }),
    },
    summary: { method: 'GET', path: '/api/admin/archive/summary', access: 'admin', schemas: ({ archive }) => ({ response: { 200: archive.archiveSummary } }) },
    upload: {
      method: 'POST',
      path: '/api/admin/archive/images',
      access: 'admin',
      upload: true,
      description: 'Arquivos no campo "files" (até 50 por envio, 50 MB cada) e os campos de texto de archiveUploadFields.',
      schemas: ({ archive }) => ({ response: { 200: archive.archiveUploadResult } }),
    },
    bulk: {
      method: 'POST',
      path: '/api/admin/archive/images/bulk',
      access: 'admin',
      schemas: ({ archive }) => ({ body: archive.archiveBulkInput, response: { 200: archive.archiveBulkResult } }),
    },
    get: {
      method: 'GET',
      path: '/api/admin/archive/images/:id',
      access: 'admin',
      schemas: ({ archive }) => ({ params: archive.archiveIdParam, response: { 200: archive.archiveItem } }),
    },
    edit: {
      method: 'PATCH',
      path: '/api/admin/archive/images/:id',
      access: 'admin',
      schemas: ({ archive }) => ({ params: archive.archiveIdParam, body: archive.archiveEditInput, response: { 200: archive.archiveEditResult } }),
    },
    remove: {
      method: 'DELETE',
      path: '/api/admin/archive/images/:id',
      access: 'admin',
      schemas: ({ archive, responses }) => ({ params: archive.archiveIdParam, response: { 200: responses.messageResult } }),
    },
    favourite: {
      method: 'PUT',
      path: '/api/admin/archive/images/:id/favourite',
      access: 'admin',
      schemas: ({ archive }) => ({ params: archive.archiveIdParam, body: archive.archiveFavouriteInput, response: { 200: archive.archiveFavouriteResult } }),
    },
    copyLink: {
      method: 'POST',
      path: '/api/admin/archive/images/:id/copy-link',
      access: 'admin',
      schemas: ({ archive }) => ({ params: archive.archiveIdParam, response: { 200: archive.archiveCounters } }),
    },
    select: {
      method: 'POST',
      path: '/api/admin/archive/images/:id/select',
      access: 'admin',
      schemas: ({ archive }) => ({ params: archive.archiveIdParam, body: archive.archiveSelectInput.optional(), response: { 200: archive.archiveSelectResult } }),
    },
    share: {
      method: 'POST',
      path: '/api/admin/archive/images/:id/share',
      access: 'admin',
      schemas: ({ archive }) => ({ params: archive.archiveIdParam, response: { 200: archive.archiveShareResult } }),
    },
    unshare: {
      method: 'DELETE',
      path: '/api/admin/archive/images/:id/share',
      access: 'admin',
      schemas: ({ archive, responses }) => ({ params: archive.archiveIdParam, response: { 200: responses.messageResult } }),
    },
    // Declared public: each answer is decided by the image's access level.
    file: { method: 'GET', path: '/api/archive/files/:key', access: 'public', answer: 'file', schemas: ({ archive }) => ({ params: archive.archiveFileParams }) },
    fileVariant: {
      method: 'GET',
      path: '/api/archive/files/:key/:variant',
      access: 'public',
      answer: 'file',
      schemas: ({ archive }) => ({ params: archive.archiveFileParams }),
    },
  },
);
