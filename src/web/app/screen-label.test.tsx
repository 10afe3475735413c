import { Gauge, Users } from 'lucide-react';
import { expect, test } from 'vitest';
import { screenLabel } from './app-layout.tsx';

test("the band names the screen by the sidebar's entry the path lies under, the longest one", () => {
  const entries = [
    { path: '/admin', label: 'Dashboard', icon: Gauge },
    { path: '/admin/students', label: 'Gerenciar Alunos', icon: Users },
  ];
  expect(screenLabel(entries, '/admin')).toBe('Dashboard');
  expect(screenLabel(entries, '/admin/students')).toBe('Gerenciar Alunos');
  expect(screenLabel(entries, '/admin/students/importar')).toBe('Gerenciar Alunos');
  expect(screenLabel(entries, '/admin/recent-operations')).toBe('Dashboard');
  expect(screenLabel(entries, '/student')).toBeUndefined();
});
