import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { ApiError } from './api.ts';
import { useIdempotentMutation } from './idempotency.ts';

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean;
}
globalThis.IS_REACT_ACT_ENVIRONMENT = true;

type Transfer = { recipientId: string; amount: number };
/** One request the hook sent, answered by the test when it chooses. */
type Sent = { variables: Transfer; key: string; answer: (result: ApiError | 'ok') => void };

let container: HTMLDivElement;
let root: Root;
let sent: Sent[];
let outcomes: string[];
/** What the form holds when its button is clicked. */
let draft: Transfer;
let onSend: (() => void) | undefined;

function Form() {
  const transfer = useIdempotentMutation<Transfer, string>({
    mutationFn: (variables, key) =>
      new Promise((resolve, reject) => {
        sent.push({ variables, key, answer: (result) => (result === 'ok' ? resolve(key) : reject(result)) });
        onSend?.();
      }),
    onSuccess: (key) => outcomes.push(`ok ${key}`),
    onError: (error) => outcomes.push(error.code),
  });
  return (
    <button type="button" onClick={() => transfer.submit(draft)}>
      {transfer.isPending ? 'enviando' : 'pronto'}
    </button>
  );
}

beforeEach(() => {
  sent = [];
  outcomes = [];
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  act(() =>
    root.render(
      <QueryClientProvider client={client}>
        <Form />
      </QueryClientProvider>,
    ),
  );
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

const ana = { recipientId: 'a6f0c1d2-3b4c-4d5e-8f60-718293a4b5c6', amount: 5 };

/** Clicks the form's button once per set of data given, at once, and waits until a request leaves and the form shows it busy. */
async function submit(...clicks: Transfer[]) {
  const leaves = new Promise<void>((resolve) => (onSend = resolve));
  act(() => {
    for (const variables of clicks) {
      draft = variables;
      container.querySelector('button')!.click();
    }
  });
  await act(() => leaves);
  await vi.waitFor(() => expect(container.textContent).toBe('enviando'));
}

/** Answers the last request and waits until the form shows it is free again (its handlers have run by then). */
async function answer(result: ApiError | 'ok') {
  await act(async () => sent.at(-1)!.answer(result));
  await vi.waitFor(() => expect(container.textContent).toBe('pronto'));
}

test('a double click sends one request; after its answer the next submission is a new operation with a fresh key', async () => {
  await submit(ana, ana);
  await answer('ok');
  expect(sent).toHaveLength(1);
  expect(outcomes).toEqual([`ok ${sent[0]!.key}`]);

  await submit(ana);
  expect(sent).toHaveLength(2);
  expect(sent[1]!.key).not.toBe(sent[0]!.key);
});

test('re-sent after a network failure or a server error, the same data keeps its key, so the server does it once', async () => {
  await submit(ana);
  await answer(new ApiError(0, 'network', 'Sem conexão'));
  await submit(ana);
  await answer(new ApiError(503, 'internal', 'Erro'));
  await submit(ana);
  await answer('ok');
  expect(outcomes).toEqual(['network', 'internal', `ok ${sent[0]!.key}`]);
  expect(new Set(sent.map((request) => request.key)).size).toBe(1);
});

test('a refusal the server answered, or changed data, is a new operation with a new key', async () => {
  await submit(ana);
  await answer(new ApiError(400, 'insufficient_balance', 'Saldo insuficiente'));
  await submit(ana);
  await answer(new ApiError(0, 'network', 'Sem conexão'));
  await submit({ ...ana, amount: 4 });
  expect(sent.map((request) => request.variables.amount)).toEqual([5, 5, 4]);
  expect(new Set(sent.map((request) => request.key)).size).toBe(3);
});
