import { defineRoutes } from './route.ts';

/** The weekly tags: who holds one, an administrator's changes, and the students' likes (which follow them across devices). */
export const tags = defineRoutes(['tags'], {
  active: { method: 'GET', path: '/api/tags/active', access: 'signedIn', schemas: (s) => ({ response: { 200: s.activeTagsResponse } }) },
  give: {
    method: 'PUT',
    path: '/api/admin/students/:id/tags/:kind',
    access: 'award',
    schemas: (s) => ({
      params: s.studentTagParams,
      body: s.tagDaysInput.optional(),
      response: { 200: s.tagChangeResult },
    }),
  },
  moveExpiry: {
    method: 'PATCH',
    path: '/api/admin/students/:id/tags/:kind',
    access: 'award',
    schemas: (s) => ({ params: s.studentTagParams, body: s.tagExpiryInput, response: { 200: s.tagChangeResult } }),
  },
  take: {
    method: 'DELETE',
    path: '/api/admin/students/:id/tags/:kind',
    access: 'award',
    schemas: (s) => ({ params: s.studentTagParams, response: { 200: s.tagChangeResult } }),
  },
  like: {
    method: 'PUT',
    path: '/api/tags/:tagId/like',
    access: 'student',
    schemas: (s) => ({ params: s.tagLikeParams, response: { 200: s.tagLikeState } }),
  },
  unlike: {
    method: 'DELETE',
    path: '/api/tags/:tagId/like',
    access: 'student',
    schemas: (s) => ({ params: s.tagLikeParams, response: { 200: s.tagLikeState } }),
  },
});
