import { describe, expect, test } from 'vitest';
import { removalRefusal } from './meritus-form.tsx';

describe('refusing a removal beyond a balance', () => {
  test('one student: the spec\'s message as it is', () => {
    expect(removalRefusal([{ name: 'Ana Souza', meritus: 3 }], 1)).toBe('Não é possível remover mais Méritus do que o estudante possui');
  });

  test('several students: names who is short, with their balance, and says nothing changed', () => {
    const short = [
      { name: 'Ana Souza', meritus: 3 },
      { name: 'Bruno Lima', meritus: 1250 },
      { name: 'Carla Dias', meritus: 0 },
      { name: 'Diego Rocha', meritus: 2 },
      { name: 'Eva Nunes', meritus: 4 },
    ];
    expect(removalRefusal(short, 30)).toBe(
      'Não é possível remover mais Méritus do que o estudante possui: Ana Souza (3 M$), Bruno Lima (1.250 M$), Carla Dias (0 M$) e mais 2. Nenhum saldo foi alterado.',
    );
  });
});
