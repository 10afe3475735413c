import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { Settings } from 'lucide-react';
import { expect, test } from 'vitest';
import type { SessionUser } from '../../shared/auth.ts';
import { routes } from '../../shared/contract/routes.ts';
import { permissionsOf, type StaffRole } from '../../shared/permissions.ts';
import { queryKeyOf } from '../lib/query-keys.ts';
import { mayOpen, ScreenAccess } from './screen-access.tsx';
import type { AppRoute } from './route-types.ts';

function staff(role: StaffRole, turmas: { id: string; name: string }[]): SessionUser {
  const admin = {
    id: '00000000-0000-4000-8000-000000000001',
    adminId: 'adm-1',
    name: 'Joana Prado',
    email: 'joana@escola.test',
    role,
    permissions: [...permissionsOf(role, { teachersManageStudents: false })],
    turmas,
  };
  // One branch per member of the union: TypeScript does not split a `role` of either value into them.
  return role === 'coordinator' ? { role, admin } : { role, admin };
}

const TURMA = { id: '00000000-0000-4000-8000-0000000000a1', name: '2º EM - Turma A' };
const screen = (access: Pick<AppRoute, 'permission' | 'listsStudents'>): AppRoute => ({
  path: '/admin/x',
  Component: () => null,
  nav: { label: 'Tela', icon: Settings },
  ...access,
});

/** What the screen's place shows for this member: the screen itself ('conteúdo'), or what stands in for it. */
function shown(user: SessionUser, route: AppRoute): string {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  client.setQueryData(queryKeyOf(routes.auth.me), user);
  const html = renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ScreenAccess route={route}>conteúdo</ScreenAccess>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
}

test("a coordination screen shows 'Sem permissão' to a teacher, and opens for the coordination", () => {
  const settings = screen({ permission: 'manageSchool' });
  expect(shown(staff('teacher', [TURMA]), settings)).toMatch(/^Sem permissão.*coordenação.*Voltar ao Dashboard$/);
  expect(shown(staff('coordinator', []), settings)).toBe('conteúdo');
  expect(mayOpen(staff('teacher', [TURMA]), settings)).toBe(false);
  expect(mayOpen(staff('teacher', [TURMA]), screen({ permission: 'award' }))).toBe(true);
  expect(mayOpen(null, screen({}))).toBe(true);
});

test('a screen of students explains itself to a teacher without turmas; with turmas, or for the coordination, it opens', () => {
  const students = screen({ listsStudents: true });
  expect(shown(staff('teacher', []), students)).toBe(
    'TelaVocê ainda não tem turmas.Peça à coordenação para atribuir suas turmas. Quando ela fizer isso, seus alunos aparecem aqui.',
  );
  expect(shown(staff('teacher', [TURMA]), students)).toBe('conteúdo');
  // The coordination's list of turmas is empty: it sees every turma.
  expect(shown(staff('coordinator', []), students)).toBe('conteúdo');
  expect(shown(staff('teacher', []), screen({}))).toBe('conteúdo');
});
