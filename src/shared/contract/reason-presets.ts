import { defineRoutes } from './route.ts';

export const reasonPresets = defineRoutes(
  { tags: ['reason-presets'], load: async () => ({ z: (await import('zod')).z, presets: await import('../reason-presets.ts') }) },
  {
    list: { method: 'GET', path: '/api/admin/reason-presets', access: 'admin', schemas: ({ z, presets }) => ({ response: { 200: z.array(presets.reasonPreset) } }) },
    create: {
      method: 'POST',
      path: '/api/admin/reason-presets',
      access: 'admin',
      schemas: ({ presets }) => ({ body: presets.createReasonPresetInput, response: { 201: presets.reasonPreset } }),
    },
    remove: {
      method: 'DELETE',
      path: '/api/admin/reason-presets/:id',
      access: 'admin',
      schemas: ({ z, presets }) => ({ params: presets.reasonPresetParams, response: { 204: z.null() } }),
    },
  },
);
