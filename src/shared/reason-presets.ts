import { z } from 'zod';
import { textInput } from './validation.ts';

/** Reasons administrators keep to fill the description of an award or deduction in one click. */
export const REASON_PRESET_MAX_LENGTH = 80;
export const REASON_PRESETS_LIMIT = 30;

export const reasonPreset = z.object({
  id: z.uuid(),
  label: z.string(),
  createdAt: z.string(),
});
export type ReasonPreset = z.infer<typeof reasonPreset>;

/** POST /api/admin/reason-presets */
export const createReasonPresetInput = z.object({
  label: textInput({ error: 'preset_label_required', max: REASON_PRESET_MAX_LENGTH, maxError: 'preset_label_too_long' }).min(1, {
    error: 'preset_label_required',
  }),
});
export type CreateReasonPresetInput = z.input<typeof createReasonPresetInput>;

/** Any text is accepted so an unknown id answers 404 rather than a validation error. */
export const reasonPresetParams = z.object({ id: textInput({ max: 60, trim: false }) });
