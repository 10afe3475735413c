/** Whether the server marked the page as a demo (it then shows the demonstration credentials). */
export function isDemoMode(): boolean {
  return document.querySelector('meta[name="meritus-demo"]')?.getAttribute('content') === 'on';
}

/** The demo school's accounts, seeded only in demo mode. */
export const DEMO_CREDENTIALS = {
  student: { studentId: '2024001', password: 'aluno123' },
  admin: { email: 'admin@escola.com', password: 'admin123' },
} as const;
