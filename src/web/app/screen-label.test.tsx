import { Gauge, Users } from 'lucide-react';
import { expect, test } from 'vitest';
import { screenLabel } from './app-layout.tsx';

test('the band names the screen: its sidebar label or title, else that of the longest route its path lies under', () => {
  const routes = [
    { path: '/admin', nav: { label: 'Dashboard', icon: Gauge } },
    { path: '/admin/students', nav: { label: 'Gerenciar Alunos', icon: Users } },
    { path: '/admin/settings', title: 'Configurações' },
    { path: '/admin/untitled' },
  ];
  expect(screenLabel(routes, '/admin')).toBe('Dashboard');
  expect(screenLabel(routes, '/admin/students')).toBe('Gerenciar Alunos');
  expect(screenLabel(routes, '/admin/students/importar')).toBe('Gerenciar Alunos');
  expect(screenLabel(routes, '/admin/settings')).toBe('Configurações');
  expect(screenLabel(routes, '/admin/untitled')).toBe('Dashboard');
  expect(screenLabel(routes, '/student')).toBeUndefined();
});
