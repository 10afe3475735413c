import { defineRoutes } from './route.ts';

export const reasonPresets = defineRoutes(['reason-presets'], {
  list: {
    method: 'GET',
    path: '/api/admin/reason-presets',
    access: 'staffArea',
    schemas: (s) => ({ response: { 200: s.z.array(s.reasonPreset) } }),
  },
  create: {
    method: 'POST',
    path: '/api/admin/reason-presets',
    access: 'manageSchool',
    schemas: (s) => ({ body: s.createReasonPresetInput, response: { 201: s.reasonPreset } }),
  },
  remove: {
    method: 'DELETE',
    path: '/api/admin/reason-presets/:id',
    access: 'manageSchool',
    schemas: (s) => ({ params: s.reasonPresetParams, response: { 204: s.z.null() } }),
  },
});
