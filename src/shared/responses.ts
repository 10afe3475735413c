import { z } from 'zod';

/** The answer of a write that only says what it did (a removal, a revocation): its pt-BR message. */
export const messageResult = z.object({ message: z.string() });
export type MessageResult = z.infer<typeof messageResult>;
