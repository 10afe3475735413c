import { asc, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { admins, students, studentTags } from '../db/schema.ts';
import { AppError } from '../app-error.ts';
import { adminOperation, studentTransfer, type LedgerDeps } from '../modules/ledger/ledger.service.ts';
import { reverseOperation } from '../modules/ledger/reversal.service.ts';
import { selectStudents } from '../views/student-views.ts';
import { silentEvents } from '../realtime/event-bus.ts';
import { seededRandom } from './seeded-random.ts';
import { TAG_KINDS } from '../../shared/constants.ts';
import type { Currency } from '../../shared/ledger-types.ts';
import type { AdminOperationType } from '../../shared/ledger-types.ts';
import { coordinatorActor } from '../modules/auth/actor.ts';

const DAY = 86_400_000;
const HISTORY_DAYS = 90;

const REWARDS = [
  'Participação em aula',
  'Entrega de trabalho no prazo',
  'Monitoria de matemática',
  'Destaque na feira de ciências',
  'Ajuda a um colega',
  'Leitura do mês concluída',
  'Organização da sala',
  'Presença perfeita na semana',
];
const PENALTIES = ['Atraso na entrega', 'Uso de celular em aula', 'Tarefa não entregue', 'Conversa durante a prova'];
const TRANSFERS = ['Ajuda no trabalho em grupo', 'Empréstimo do material', 'Obrigado pela explicação!', 'Parceria no projeto', undefined];
const ESTELECAS_REWARDS = ['Nota máxima na prova', 'Projeto de excelência', 'Olimpíada de matemática', 'Redação destaque'];

/**
 * A believable school term: initial balances, weekly rewards and penalties, transfers
 * between classmates and Estelecas, written through the ledger's own functions so every
 * balance, total and ranking agrees with the ledger. Also hands out a few current tags.
 */
export async function seedDemoHistory(db: Db, now = new Date()): Promise<number> {
  const random = seededRandom(90);
  const [admin] = await db.select().from(admins).orderBy(asc(admins.createdAt)).limit(1);
  if (!admin) throw new Error('demo history needs an administrator');
  const actor = coordinatorActor(admin);
  const roster = await selectStudents(db).where(isNull(students.deletedAt)).orderBy(asc(students.studentId));
  const start = now.getTime() - HISTORY_DAYS * DAY;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  /** A moment on a school day (Mon–Fri, 7h–17h in Brasília, UTC−3) `days` after the start. */
  const schoolTime = (days: number): number => {
    const day = new Date(start + Math.floor(days) * DAY);
    while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day.setTime(day.getTime() + DAY);
    day.setUTCHours(10, 0, 0, 0);
    return Math.min(day.getTime() + random() * 10 * 3_600_000, now.getTime() - 60_000);
  };
  // Each student gets a temperament, so the ranking spreads out instead of bunching.
  const effort = new Map(roster.map((s) => [s.id, 0.3 + random() * 0.9]));

  // Written through the ledger's own operations, in the past; nobody watches their events yet.
  const deps: LedgerDeps = { db, events: silentEvents };
  const backdatedAdmin = (
    currency: Currency,
    id: string,
    operation: { type: AdminOperationType; amount: number; description: string },
    at: Date,
  ) => adminOperation(deps, actor, currency, { id, ...operation }, { at });
  const backdatedTransfer = (
    sender: (typeof roster)[number],
    currency: Currency,
    transfer: { recipientId: string; amount: number; description?: string },
    at: Date,
  ) =>
    studentTransfer(deps, { role: 'student', id: sender.id, name: sender.name, studentId: sender.studentId }, currency, transfer, { at });

  type Planned = { at: number; run: () => Promise<unknown> };
  const plan: Planned[] = [];
  /** `operation` runs when the plan does, so its random() calls keep their place in the sequence. */
  const planAdmin = (
    at: number,
    currency: Currency,
    id: string,
    operation: () => { type: AdminOperationType; amount: number; description: string },
  ) => plan.push({ at, run: () => backdatedAdmin(currency, id, operation(), new Date(at)) });
  for (const student of roster) {
    plan.push({
      at: start + random() * DAY,
      run: () =>
        backdatedAdmin(
          'meritus',
          student.id,
          { type: 'admin_add', amount: 20 + Math.floor(random() * 80), description: 'Saldo inicial' },
          new Date(start),
        ),
    });
    const weight = effort.get(student.id)!;
    const events = Math.round(6 + weight * 10);
    for (let i = 0; i < events; i++) {
      const at = schoolTime(1 + random() * (HISTORY_DAYS - 1));
      const roll = random();
      if (roll < 0.55) {
        planAdmin(at, 'meritus', student.id, () => ({
          type: random() < 0.6 ? 'reward' : 'admin_add',
          amount: 5 * (1 + Math.floor(random() * weight * 8)),
          description: pick(REWARDS),
        }));
      } else if (roll < 0.68) {
        planAdmin(at, 'meritus', student.id, () => ({
          type: 'penalty',
          amount: 5 + Math.floor(random() * 3) * 5,
          description: pick(PENALTIES),
        }));
      } else if (roll < 0.88) {
        const recipient = pick(roster.filter((s) => s.id !== student.id && s.grade.slice(0, 2) === student.grade.slice(0, 2)));
        const description = pick(TRANSFERS);
        plan.push({
          at,
          run: () =>
            backdatedTransfer(
              student,
              'meritus',
              {
                recipientId: recipient.id,
                amount: 2 + Math.floor(random() * 15),
                ...(description ? { description } : {}),
              },
              new Date(at),
            ),
        });
      } else if (roll < 0.97) {
        planAdmin(at, 'estelecas', student.id, () => ({
          type: 'reward',
          amount: 3 + Math.floor(random() * weight * 12),
          description: pick(ESTELECAS_REWARDS),
        }));
      } else {
        const recipient = pick(roster.filter((s) => s.id !== student.id));
        plan.push({
          at,
          run: () =>
            backdatedTransfer(student, 'estelecas', { recipientId: recipient.id, amount: 1 + Math.floor(random() * 3) }, new Date(at)),
        });
      }
    }
  }
  // The demo student shows every part of the student area from the first sign-in.
  const showcase = roster[0];
  if (showcase) {
    for (const [days, amount, description] of [
      [20, 12, 'Projeto de excelência'],
      [55, 30, 'Olimpíada de matemática'],
      [80, 15, 'Redação destaque'],
    ] as const) {
      const at = schoolTime(days);
      plan.push({
        at,
        run: () => backdatedAdmin('estelecas', showcase.id, { type: 'reward', amount, description }, new Date(at)),
      });
    }
  }
  // A reward given to the wrong student and reversed half an hour later (decision 025): the
  // history shows 'Estornada em … por …: motivo' and its reversal's line.
  if (showcase) {
    const at = schoolTime(HISTORY_DAYS - 3);
    let rewardId: string | undefined;
    plan.push({
      at,
      run: async () => {
        const operation = { type: 'reward' as const, amount: 25, description: 'Monitoria de matemática' };
        rewardId = (await backdatedAdmin('meritus', showcase.id, operation, new Date(at))).body.entry.id;
      },
    });
    const reversedAt = new Date(Math.min(at + 30 * 60_000, now.getTime() - 30_000));
    plan.push({
      at: reversedAt.getTime(),
      run: () => reverseOperation(deps, actor, rewardId, { reason: 'Lançado para o aluno errado' }, { at: reversedAt }),
    });
  }
  plan.sort((a, b) => a.at - b.at);
  let written = 0;
  for (const step of plan) {
    try {
      await step.run();
      written += 1;
    } catch (error) {
      // A planned transfer or penalty beyond the balance at that moment is refused, as it would be in class.
      if (!(error instanceof AppError)) throw error;
    }
  }

  const others = roster.slice(1).sort(() => random() - 0.5);
  const holders = [...(showcase ? [showcase] : []), ...others].slice(0, TAG_KINDS.length + 2);
  await db.insert(studentTags).values(
    holders.map((student, index) => ({
      studentUuid: student.id,
      kind: TAG_KINDS[index % TAG_KINDS.length]!,
      assignedAt: new Date(now.getTime() - (1 + index) * DAY),
      expiresAt: new Date(now.getTime() + (6 - index) * DAY),
      assignedBy: admin.id,
    })),
  );
  return written;
}
