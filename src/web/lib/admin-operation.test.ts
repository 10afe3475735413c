import { describe, expect, test } from 'vitest';
import { ApiError } from './api.ts';
import { removalRefusal, shortInRefusal, validateAdminOperation } from './admin-operation.ts';

const holder = (name: string, meritus: number, estelecas = 0) => ({ name, meritus, estelecas });
const short = (name: string, balance: number) => ({ name, balance });

describe('refusing a removal beyond a balance', () => {
  test("one student: the spec's message as it is, per currency", () => {
    expect(removalRefusal('meritus', [short('Ana Souza', 3)], 1)).toBe('Não é possível remover mais Méritus do que o estudante possui');
    expect(removalRefusal('estelecas', [short('Ana Souza', 3)], 1)).toBe('Não é possível remover mais Estelecas do que o estudante possui');
  });

  test('several students: names who is short, with their balance, and says nothing changed', () => {
    const several = [
      short('Ana Souza', 3),
      short('Bruno Lima', 1250),
      short('Carla Dias', 0),
      short('Diego Rocha', 2),
      short('Eva Nunes', 4),
    ];
    expect(removalRefusal('meritus', several, 30)).toBe(
      'Não é possível remover mais Méritus do que o estudante possui: ' +
        'Ana Souza (3 M$), Bruno Lima (1.250 M$), Carla Dias (0 M$) e mais 2. Nenhum saldo foi alterado.',
    );
    expect(removalRefusal('estelecas', [short('Ana Souza', 1), short('Bruno Lima', 0)], 2)).toBe(
      'Não é possível remover mais Estelecas do que o estudante possui: Ana Souza (1 Esteleca), Bruno Lima (0 Estelecas). Nenhum saldo foi alterado.',
    );
  });

  test("a whole turma refused by the server: the students and balances the server named, not this screen's copy", () => {
    const refused = new ApiError(
      400,
      'remove_exceeds_balance',
      'Não é possível remover mais Méritus do que o estudante possui',
      undefined,
      {
        short: [
          { id: '6f1c1c2e-8a9b-4c1d-9e2f-3a4b5c6d7e8f', name: 'Bruno Lima', balance: 4 },
          { id: '0b7e6d5c-4b3a-4291-8f7e-6d5c4b3a2910', name: 'Carla Dias', balance: 0 },
        ],
      },
    );
    expect(removalRefusal('meritus', shortInRefusal(refused), 30)).toBe(
      'Não é possível remover mais Méritus do que o estudante possui: Bruno Lima (4 M$), Carla Dias (0 M$). Nenhum saldo foi alterado.',
    );
  });

  test('an answer naming nobody (or not as expected) leaves the plain message', () => {
    for (const details of [undefined, { short: 'Bruno' }, { short: [{ name: 'Bruno Lima' }] }]) {
      const refused = new ApiError(400, 'remove_exceeds_balance', 'x', undefined, details);
      expect(shortInRefusal(refused)).toEqual([]);
      expect(removalRefusal('meritus', shortInRefusal(refused), 30)).toBe('Não é possível remover mais Méritus do que o estudante possui');
    }
  });
});

describe('checking the Gerenciar M$ form before it is sent', () => {
  const ana = holder('Ana Souza', 30);
  const bruno = holder('Bruno Lima', 5);
  const draft = { type: 'admin_add' as const, amount: '10', description: ' Participação ' };

  test('nobody chosen, a blank amount or a blank reason: fill every field', () => {
    for (const [changed, chosen] of [
      [{}, []],
      [{ amount: ' ' }, [ana]],
      [{ description: '  ' }, [ana]],
      [{ amount: '0', description: '' }, [ana]],
    ] as const) {
      expect(validateAdminOperation('meritus', { ...draft, ...changed }, chosen)).toEqual({
        ok: false,
        message: 'Preencha todos os campos',
      });
    }
  });

  test('the amount must be a whole number from 1 to 100.000', () => {
    expect(validateAdminOperation('meritus', { ...draft, amount: '0' }, [ana])).toEqual({
      ok: false,
      message: 'O valor deve ser maior que zero',
    });
    expect(validateAdminOperation('meritus', { ...draft, amount: '-3' }, [ana])).toEqual({
      ok: false,
      message: 'O valor deve ser maior que zero',
    });
    expect(validateAdminOperation('meritus', { ...draft, amount: '2.5' }, [ana])).toEqual({
      ok: false,
      message: 'O valor deve ser um número inteiro',
    });
    expect(validateAdminOperation('meritus', { ...draft, amount: '100001' }, [ana])).toEqual({
      ok: false,
      message: 'O valor máximo por operação é 100.000',
    });
  });

  test.each([
    [
      'penalty',
      '10',
      [ana, bruno],
      'Não é possível remover mais Méritus do que o estudante possui: Bruno Lima (5 M$). Nenhum saldo foi alterado.',
    ],
    ['admin_remove', '31', [ana], 'Não é possível remover mais Méritus do que o estudante possui'],
  ] as const)('a %s of %s is refused when a chosen balance does not cover it', (type, amount, chosen, message) => {
    expect(validateAdminOperation('meritus', { ...draft, type, amount }, chosen)).toEqual({ ok: false, message });
  });

  test.each([
    ['reward', '100000', [bruno]],
    ['admin_remove', '5', [ana, bruno]],
  ] as const)('a %s of %s within every balance goes out as typed, its description trimmed', (type, amount, chosen) => {
    expect(validateAdminOperation('meritus', { ...draft, type, amount }, chosen)).toEqual({
      ok: true,
      input: { type, amount: Number(amount), description: 'Participação' },
    });
  });
});

describe('checking the Estelecas add and remove dialogs', () => {
  const student = holder('Ana Souza', 0, 4);
  const draft = { type: 'reward' as const, amount: '3', description: ' Monitoria ' };

  test("every field, and a whole quantity of at least 1, or 'Preencha todos os campos'", () => {
    const missing = { ok: false, message: 'Preencha todos os campos' };
    expect(validateAdminOperation('estelecas', draft, [])).toEqual(missing);
    for (const amount of ['', '0', '-2', '1.5'])
      expect(validateAdminOperation('estelecas', { ...draft, amount }, [student])).toEqual(missing);
    expect(validateAdminOperation('estelecas', { ...draft, description: ' ' }, [student])).toEqual(missing);
    expect(validateAdminOperation('estelecas', { ...draft, amount: '100001' }, [student])).toEqual({
      ok: false,
      message: 'O valor máximo por operação é 100.000',
    });
    expect(validateAdminOperation('estelecas', { ...draft, amount: '40' }, [student])).toEqual({
      ok: true,
      input: { type: 'reward', amount: 40, description: 'Monitoria' },
    });
  });

  test('a removal cannot take more Estelecas than the student has', () => {
    const remove = (amount: string) => validateAdminOperation('estelecas', { ...draft, type: 'penalty', amount }, [student]);
    expect(remove('5')).toEqual({ ok: false, message: 'Não é possível remover mais Estelecas do que o estudante possui' });
    expect(remove('4')).toEqual({ ok: true, input: { type: 'penalty', amount: 4, description: 'Monitoria' } });
  });
});
