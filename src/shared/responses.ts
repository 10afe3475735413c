import { z } from 'zod';

/** The answer of a write that only says what it did (a removal, a revocation): its pt-BR message. */
export const messageResult = z.object({ message: z.string() });
export type MessageResult = z.infer<typeof messageResult>;

/**
 * A download's answer (CSV, XLSX, PDF): sent as it is (text, bytes or a stream), never serialized as JSON, so the
 * schema only describes it in the OpenAPI document.
 */
function fileAnswer(description: string) {
  return z
    .custom<string | Uint8Array | AsyncIterable<unknown>>(
      (value) =>
        typeof value === 'string' ||
        value instanceof Uint8Array ||
        (typeof value === 'object' && value !== null && Symbol.asyncIterator in value),
    )
    .describe(description);
}

export const csvFile = fileAnswer('CSV (UTF-8 com BOM, separado por ";")');
export const reportFile = fileAnswer('Arquivo (CSV, XLSX ou PDF)');
