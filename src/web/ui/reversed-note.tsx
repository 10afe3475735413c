import type { ReversalNote } from '../../shared/ledger.ts';
import { reversedNote } from '../../shared/ledger-texts.ts';

/** "Estornada em 28/11/2026 por Carla Dias: Aluno errado", under a reversed row wherever it is listed. */
export function ReversedNote({ reversal }: { reversal: ReversalNote | null }) {
  if (!reversal) return null;
  return <p className="mt-0.5 text-xs font-medium wrap-anywhere text-amber-800">{reversedNote(reversal)}</p>;
}
