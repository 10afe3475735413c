/**
 * The demo school's accounts (seeded only in demo mode): the login page's demonstration box shows them, the seed
 * creates them. The teachers' turmas and budgets are the seed's (src/server/seed/seed.ts).
 */
export const DEMO_CREDENTIALS = {
  student: { studentId: '2024001', password: 'aluno123' },
  admin: { name: 'Administrador Principal', email: 'admin@escola.com', password: 'admin123' },
  teachers: [
    { name: 'Marina Alves', email: 'marina.alves@escola.com', password: 'prof1234' },
    { name: 'Rafael Souza', email: 'rafael.souza@escola.com', password: 'prof1234' },
  ],
} as const;
