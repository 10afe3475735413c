import { act } from 'react';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { mountPerTest } from '../test/test-root.ts';
import { AppToaster } from '../ui/toaster.tsx';
import { routes } from '../../shared/contract/routes.ts';
import { ApiError, createApiClient } from './api.ts';
import { toast, toastError, toastFailure } from './toast.ts';

// jsdom has no matchMedia; react-hot-toast asks it whether motion is reduced.
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  addEventListener() {},
  removeEventListener() {},
})) as unknown as typeof window.matchMedia;

const root = mountPerTest();

beforeEach(() => root.render(<AppToaster />));
// Registered after the root's: after-hooks run last-registered first, so the toasts go before the root unmounts.
afterEach(() => act(() => toast.remove()));

function shown(): string {
  return root.container().querySelector('[role="status"]')?.textContent ?? '';
}

describe('error toasts', () => {
  test('a failure the server answered shows its message and the short code of its request', () => {
    act(() =>
      toastError(
        new ApiError(500, 'internal', 'Erro interno do servidor', undefined, undefined, '7F3K2Q9M'),
        'Erro ao realizar transferência',
      ),
    );
    expect(shown()).toContain('Erro ao realizar transferência');
    expect(shown()).toContain('Código: 7F3K-2Q9M');
  });

  test('the code is the one the server sent in X-Request-Id with its answer', async () => {
    const client = createApiClient({
      fetch: async () =>
        new Response(JSON.stringify({ error: { code: 'internal', message: 'Erro interno do servidor' } }), {
          status: 500,
          headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'Q8ZK4T1M' },
        }),
      retryDelayMs: 0,
    });
    const failure: unknown = await client.call(routes.archive.get, { params: { id: '1' } }).catch((error: unknown) => error);
    act(() => toastError(failure));
    expect(shown()).toBe('Erro interno do servidorCódigo: Q8ZK-4T1M');
  });

  test('a refusal says its pt-BR reason alone: a code beside it reads as a crash', () => {
    act(() => toastError(new ApiError(409, 'insufficient_balance', 'Saldo insuficiente', undefined, undefined, 'ABCD2345')));
    expect(shown()).toBe('Saldo insuficiente');
    act(() => toast.remove());
    act(() =>
      toastFailure(
        'Erro ao salvar estudante',
        new ApiError(409, 'student_id_taken', 'Já existe um estudante com esta matrícula', undefined, undefined, 'M2K7QX4A'),
      ),
    );
    expect(shown()).toBe('Erro ao salvar estudante');
  });

  test("a screen's own failure text (the spec's) keeps the code of the request the server failed", () => {
    act(() =>
      toastFailure('Erro ao salvar estudante', new ApiError(503, 'internal', 'Erro interno do servidor', undefined, undefined, 'M2K7QX4A')),
    );
    expect(shown()).toBe('Erro ao salvar estudanteCódigo: M2K7-QX4A');
  });

  test('a network failure has no request to name: the message alone', () => {
    act(() => toastError(new ApiError(0, 'network', 'Sem conexão com o servidor'), 'Erro ao realizar transferência'));
    expect(shown()).toBe('Erro ao realizar transferência');
    expect(shown()).not.toContain('Código');
  });
});
