import { GRADES } from '../src/shared/constants.ts';

/** The administrator the benches' servers start with, and each bench student's Méritus balance at the start. */
export const ADMIN = { email: 'bench@escola.test', password: 'bench-admin-123' };
export const INITIAL = 1000;

export function cookieOf(response: Response): string {
  const cookie = response.headers.get('set-cookie');
  if (!cookie) throw new Error(`no cookie (${response.status})`);
  return cookie.split(';')[0]!;
}

export const post = (url: string, cookie: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...headers },
    body: JSON.stringify(body),
  });

export type BenchStudent = { id: string; studentId: string; cookie: string };

/** Creates `count` students through the admin API (initial balance as a ledger entry), matrículas from `firstStudentId` on, and signs each in. */
export async function populate(url: string, count: number, firstStudentId: number): Promise<BenchStudent[]> {
  const admin = cookieOf(await post(`${url}/api/auth/admin/login`, undefined, ADMIN));
  const people: BenchStudent[] = [];
  const batch = 20;
  for (let start = 0; start < count; start += batch) {
    const created = await Promise.all(
      Array.from({ length: Math.min(batch, count - start) }, async (_, offset) => {
        const n = start + offset;
        const studentId = String(firstStudentId + n);
        const response = await post(`${url}/api/admin/students`, admin, {
          studentId,
          name: `Estudante Bench ${n}`,
          password: 'bench-aluno-1',
          grade: GRADES[n % GRADES.length],
          meritus: INITIAL,
        });
        if (response.status !== 201) throw new Error(`create student: ${response.status} ${await response.text()}`);
        const { student } = (await response.json()) as { student: { id: string } };
        const cookie = cookieOf(await post(`${url}/api/auth/student/login`, undefined, { studentId, password: 'bench-aluno-1' }));
        return { id: student.id, studentId, cookie };
      }),
    );
    people.push(...created);
  }
  return people;
}
