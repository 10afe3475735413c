import { describe, expect, test } from 'vitest';
import { removalRefusal, validateMeritusOperation } from './meritus-operation.ts';

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

describe('checking the Gerenciar M$ form before it is sent', () => {
  const ana = { name: 'Ana Souza', meritus: 30 };
  const bruno = { name: 'Bruno Lima', meritus: 5 };
  const draft = { type: 'admin_add' as const, amount: '10', description: ' Participação ' };

  test('nobody chosen, a blank amount or a blank reason: fill every field', () => {
    for (const [changed, chosen] of [[{}, []], [{ amount: ' ' }, [ana]], [{ description: '  ' }, [ana]]] as const) {
      expect(validateMeritusOperation({ ...draft, ...changed }, chosen)).toEqual({ ok: false, message: 'Preencha todos os campos' });
    }
  });

  test('the amount must be a whole number from 1 to 100.000', () => {
    expect(validateMeritusOperation({ ...draft, amount: '0' }, [ana])).toEqual({ ok: false, message: 'O valor deve ser maior que zero' });
    expect(validateMeritusOperation({ ...draft, amount: '-3' }, [ana])).toEqual({ ok: false, message: 'O valor deve ser maior que zero' });
    expect(validateMeritusOperation({ ...draft, amount: '2.5' }, [ana])).toEqual({ ok: false, message: 'O valor deve ser um número inteiro' });
    expect(validateMeritusOperation({ ...draft, amount: '100001' }, [ana])).toEqual({ ok: false, message: 'O valor máximo por operação é 100.000' });
  });

  test('a removal is refused when a chosen balance does not cover it; an award is not', () => {
    expect(validateMeritusOperation({ ...draft, type: 'penalty' }, [ana, bruno])).toEqual({
      ok: false,
      message: 'Não é possível remover mais Méritus do que o estudante possui: Bruno Lima (5 M$). Nenhum saldo foi alterado.',
    });
    expect(validateMeritusOperation({ ...draft, type: 'admin_remove', amount: '31' }, [ana])).toEqual({
      ok: false,
      message: 'Não é possível remover mais Méritus do que o estudante possui',
    });
    expect(validateMeritusOperation({ ...draft, type: 'reward', amount: '100000' }, [bruno])).toEqual({
      ok: true,
      input: { type: 'reward', amount: 100000, description: 'Participação' },
    });
    expect(validateMeritusOperation({ ...draft, type: 'admin_remove', amount: '5' }, [ana, bruno])).toEqual({
      ok: true,
      input: { type: 'admin_remove', amount: 5, description: 'Participação' },
    });
  });
});
