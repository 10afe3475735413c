import { defineRoutes } from './route.ts';

/** The weekly tags: who holds one, an administrator's changes, and the students' likes (which follow them across devices). */
export const tags = defineRoutes(
  {
    tags: ['tags'],
    load: async () => ({ students: await import('../students.ts'), adminStudents: await import('../admin-students.ts'), studentArea: await import('../student-area.ts') }),
  },
  {
    active: { method: 'GET', path: '/api/tags/active', access: 'signedIn', schemas: ({ students }) => ({ response: { 200: students.activeTagsResponse } }) },
    give: {
      method: 'PUT',
      path: '/api/admin/students/:id/tags/:kind',
      access: 'admin',
      schemas: ({ adminStudents }) => ({
        params: adminStudents.studentTagParams,
        body: adminStudents.tagDaysInput.optional(),
        response: { 200: adminStudents.tagChangeResult },
      }),
    },
    moveExpiry: {
      method: 'PATCH',
      path: '/api/admin/students/:id/tags/:kind',
      access: 'admin',
      schemas: ({ adminStudents }) => ({ params: adminStudents.studentTagParams, body: adminStudents.tagExpiryInput, response: { 200: adminStudents.tagChangeResult } }),
    },
    take: {
      method: 'DELETE',
      path: '/api/admin/students/:id/tags/:kind',
      access: 'admin',
      schemas: ({ adminStudents }) => ({ params: adminStudents.studentTagParams, response: { 200: adminStudents.tagChangeResult } }),
    },
    like: {
      method: 'PUT',
      path: '/api/tags/:tagId/like',
      access: 'student',
      schemas: ({ studentArea }) => ({ params: studentArea.tagLikeParams, response: { 200: studentArea.tagLikeState } }),
    },
    unlike: {
      method: 'DELETE',
      path: '/api/tags/:tagId/like',
      access: 'student',
      schemas: ({ studentArea }) => ({ params: studentArea.tagLikeParams, response: { 200: studentArea.tagLikeState } }),
    },
  },
);
