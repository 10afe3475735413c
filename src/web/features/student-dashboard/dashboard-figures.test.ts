import { describe, expect, test } from 'vitest';
import type { StudentSummary } from '../../../shared/student-area.ts';
import { goalCard, summaryChanges } from './dashboard-figures.ts';

function summary(overrides: {
  recent?: Partial<StudentSummary['recent']>;
  rank?: Partial<StudentSummary['rank']>;
  goal?: Partial<StudentSummary['goal']>;
  storeGoal?: StudentSummary['storeGoal'];
}): StudentSummary {
  return {
    meritus: 900,
    totalEarned: 1500,
    estelecas: 10,
    rank: { position: 3, total: 60, positionBefore: 3, ...overrides.rank },
    goal: { target: 2000, percent: 45, remaining: 1100, ...overrides.goal },
    storeGoal: overrides.storeGoal ?? null,
    recent: { meritusNet: 0, earned: 0, estelecasNet: 0, ...overrides.recent },
    estelecasStats: { received: 10, receivedRecent: 0, sent: 0, deducted: 0, peak: 10 },
  };
}

describe('dashboard change lines', () => {
  test('Méritus: net change of the last 7 days with sign and pt-BR thousands', () => {
    expect(summaryChanges(summary({ recent: { meritusNet: 1200 } })).meritus).toEqual({ direction: 'up', text: '+1.200 M$ em 7 dias' });
    expect(summaryChanges(summary({ recent: { meritusNet: -30 } })).meritus).toEqual({ direction: 'down', text: '-30 M$ em 7 dias' });
    expect(summaryChanges(summary({})).meritus).toEqual({ direction: 'flat', text: 'Sem variação em 7 dias' });
  });

  test('earned: only what teachers credited', () => {
    expect(summaryChanges(summary({ recent: { earned: 100 } })).earned.text).toBe('+100 M$ ganhos em 7 dias');
    expect(summaryChanges(summary({})).earned).toEqual({ direction: 'flat', text: 'Nenhum ganho em 7 dias' });
  });

  test('rank: moving up means a smaller position number', () => {
    expect(summaryChanges(summary({ rank: { position: 3, positionBefore: 5 } })).rank).toEqual({
      direction: 'up',
      text: 'Subiu 2 posições em 7 dias',
    });
    expect(summaryChanges(summary({ rank: { position: 4, positionBefore: 3 } })).rank).toEqual({
      direction: 'down',
      text: 'Caiu 1 posição em 7 dias',
    });
    expect(summaryChanges(summary({})).rank).toEqual({ direction: 'flat', text: 'Mesma posição há 7 dias' });
  });

  test('goal: what is missing, or reached', () => {
    expect(summaryChanges(summary({})).goal.text).toBe('Faltam 1.100 M$ de 2.000 M$');
    expect(summaryChanges(summary({ goal: { remaining: 1 } })).goal.text).toBe('Falta 1 M$ de 2.000 M$');
    expect(summaryChanges(summary({ goal: { percent: 100, remaining: 0 } })).goal).toEqual({
      direction: 'up',
      text: 'Meta de 2.000 M$ alcançada!',
    });
  });
});

describe('the goal card', () => {
  test("follows the item of the Loja the student chose, in the item's currency", () => {
    const headphones = {
      itemId: '00000000-0000-4000-8000-000000000001',
      name: 'Fone de ouvido',
      price: 1450,
      currency: 'meritus' as const,
    };
    expect(goalCard(summary({ storeGoal: headphones }))).toEqual({
      label: 'Meta: Fone de ouvido',
      percent: 62,
      change: { direction: 'flat', text: 'Faltam 550 M$ de 1.450 M$' },
    });
    expect(goalCard(summary({ storeGoal: { ...headphones, price: 900 } })).change).toEqual({
      direction: 'up',
      text: 'Você já pode comprar!',
    });
    expect(goalCard(summary({ storeGoal: { ...headphones, price: 11, currency: 'estelecas' } }))).toMatchObject({
      percent: 90,
      change: { text: 'Falta 1 Esteleca de 11 Estelecas' },
    });
  });

  test("without one, the school's Méritus goal", () => {
    expect(goalCard(summary({}))).toMatchObject({ label: 'Meta de Méritus', percent: 45 });
  });
});
