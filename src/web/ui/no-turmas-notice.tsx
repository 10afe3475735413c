import { School } from 'lucide-react';
import { Card } from './card.tsx';
import { EmptyState } from './empty-state.tsx';

export const NO_TURMAS_TEXTS = {
  title: 'Você ainda não tem turmas.',
  description: 'Peça à coordenação para atribuir suas turmas. Quando ela fizer isso, seus alunos aparecem aqui.',
} as const;

/** What a teacher without turmas sees where a screen lists students: why there is nobody, and whom to ask. */
export function NoTurmasNotice() {
  return (
    <Card>
      <EmptyState icon={<School className="size-6" />} title={NO_TURMAS_TEXTS.title} description={NO_TURMAS_TEXTS.description} />
    </Card>
  );
}
