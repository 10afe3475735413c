import { asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { admins, archiveImages, students, turmas } from '../db/schema.ts';
import { silentEvents } from '../realtime/event-bus.ts';
import { coordinatorActor, type StudentActor } from '../modules/auth/actor.ts';
import { createItem } from '../modules/store/store-catalogue.service.ts';
import { cancelOrder, deliverOrder, purchase } from '../modules/store/store.service.ts';
import { contribute } from '../modules/store/store-goals.service.ts';
import { DEFAULT_TIME_ZONE, dayIn } from '../../shared/format.ts';
import type { StoreItemInput } from '../../shared/store.ts';
import { seededRandom } from './seeded-random.ts';

const DAY = 86_400_000;

/** The demo's catalogue: `image` names a file of the demo archive (demo-archive.ts) that suits the item, when one does. */
type DemoItem = Omit<StoreItemInput, 'imageId' | 'turmaIds'> & { image?: string; buyers?: number };

const ITEMS: DemoItem[] = [
  {
    name: 'Sentar onde quiser por um dia',
    description: 'Escolha o seu lugar na sala durante um dia inteiro de aulas.',
    category: 'privilege',
    price: 150,
    currency: 'meritus',
    limit: { count: 1, period: 'week' },
    buyers: 5,
  },
  {
    name: 'Cinco minutos a mais no intervalo',
    description: 'Saia para o intervalo cinco minutos antes da turma, com autorização do professor.',
    category: 'privilege',
    price: 120,
    currency: 'meritus',
    limit: { count: 1, period: 'month' },
    buyers: 3,
  },
  {
    name: 'Escolher a música da aula de artes',
    category: 'privilege',
    price: 8,
    currency: 'estelecas',
    limit: { count: 1, period: 'week' },
    buyers: 2,
  },
  {
    name: 'Caderno universitário Méritus',
    description: 'Caderno de 10 matérias com capa do Méritus.',
    category: 'material',
    price: 250,
    currency: 'meritus',
    stock: 12,
    buyers: 4,
  },
  {
    name: 'Kit de canetas coloridas',
    description: 'Seis canetas de ponta fina.',
    category: 'material',
    price: 90,
    currency: 'meritus',
    stock: 3,
    buyers: 3,
  },
  {
    name: 'Livro à escolha na biblioteca',
    description: 'Um livro novo do acervo é seu: escolha na lista da bibliotecária.',
    category: 'material',
    price: 400,
    currency: 'meritus',
    stock: 5,
    image: 'biblioteca-acervo.jpg',
    buyers: 1,
  },
  {
    name: 'Aula extra na quadra',
    description: 'Uma aula de educação física a mais para você e um colega.',
    category: 'experience',
    price: 300,
    currency: 'meritus',
    limit: { count: 1, period: 'month' },
    image: 'galeria-quadra.jpg',
    buyers: 2,
  },
  {
    name: 'Visita guiada ao museu',
    description: 'Uma vaga na próxima excursão do grêmio.',
    category: 'experience',
    price: 20,
    currency: 'estelecas',
    stock: 10,
    image: 'galeria-excursao.jpg',
    buyers: 1,
  },
];

/** Its last buyer changed their mind: an order cancelled, its price given back. */
const CANCELLED = 'Cinco minutos a mais no intervalo';

/** The turma goal, half funded by its students (its amount: what the turma can afford, below). */
const GOAL = { name: 'Sessão de cinema da turma', description: 'Filme e pipoca no auditório para a turma toda.' };

/**
 * The Loja of the demo school (issue 35): a believable catalogue, purchases of the last two weeks (most delivered, some
 * pending, one cancelled), and one turma goal half funded, all written through the store's own services, in the past, so
 * balances, orders and the ledger reconcile. Runs after the history (balances to spend) and the archive (images).
 */
export async function seedDemoStore(db: Db, now = new Date()): Promise<void> {
  const random = seededRandom(35);
  const [admin] = await db.select().from(admins).orderBy(asc(admins.createdAt)).limit(1);
  if (!admin) throw new Error('the demo store needs an administrator');
  const actor = coordinatorActor(admin);
  const deps = { db, events: silentEvents };
  const images = new Map(
    (
      await db
        .select({ id: archiveImages.id, fileName: archiveImages.fileName })
        .from(archiveImages)
        .where(
          inArray(
            archiveImages.fileName,
            ITEMS.flatMap((item) => (item.image ? [item.image] : [])),
          ),
        )
    ).map((row) => [row.fileName, row.id]),
  );
  const roster = await db
    .select({
      id: students.id,
      name: students.name,
      studentId: students.studentId,
      turmaId: students.turmaId,
      meritus: students.meritus,
      estelecas: students.estelecas,
    })
    .from(students)
    .where(isNull(students.deletedAt))
    .orderBy(desc(students.meritus), asc(students.studentId));
  const actorOf = (student: (typeof roster)[number]): StudentActor => ({
    role: 'student',
    id: student.id,
    name: student.name,
    studentId: student.studentId,
  });
  /** A moment of the last two weeks, in school hours (10h–17h in Brasília, UTC−3). */
  const recent = (daysAgo: number) => {
    const day = new Date(now.getTime() - daysAgo * DAY);
    day.setUTCHours(13, 0, 0, 0);
    return new Date(Math.min(day.getTime() + random() * 7 * 3_600_000, now.getTime() - 60_000));
  };

  for (const { image, buyers = 0, ...input } of ITEMS) {
    const item = await createItem(deps, actor, { ...input, imageId: (image && images.get(image)) ?? null }, {});
    // The buyers: students who can afford it, spread over the school; each purchase a few days apart, the newest still pending.
    const affordable = roster.filter((student) => student[input.currency] >= 2 * input.price!);
    for (let n = 0; n < buyers && affordable.length > 0; n++) {
      const buyer = affordable.splice(Math.floor(random() * affordable.length), 1)[0]!;
      const daysAgo = 13 - Math.floor((n * 12) / Math.max(1, buyers)) - Math.floor(random() * 2);
      const at = recent(Math.max(1, daysAgo));
      const bought = await purchase(deps, actorOf(buyer), item.id, { at }).catch(() => null);
      if (!bought) continue;
      buyer[input.currency] -= input.price!;
      const orderId = bought.body.order.id;
      if (daysAgo > 4) await deliverOrder(deps, actor, orderId, { at: new Date(at.getTime() + DAY) });
      else if (input.name === CANCELLED && n === buyers - 1)
        await cancelOrder(deps, actorOf(buyer), orderId, { at: new Date(at.getTime() + 3_600_000) });
    }
  }

  // The goal of the turma of the demo student, half funded by its students, its deadline three weeks ahead.
  const [demo] = await db.select({ turmaId: students.turmaId }).from(students).where(eq(students.studentId, '2024001'));
  const [turma] = demo ? await db.select({ id: turmas.id }).from(turmas).where(eq(turmas.id, demo.turmaId)) : [];
  if (!turma) return;
  const deadline = dayIn(DEFAULT_TIME_ZONE, new Date(now.getTime() + 21 * DAY));
  // The goal asks for what the turma could afford together (four fifths of its balances); each classmate has given their
  // share of half of it, the richest rounding it up.
  const classmates = roster.filter((student) => student.turmaId === turma.id).sort((a, b) => a.meritus - b.meritus);
  const wealth = classmates.reduce((total, student) => total + student.meritus, 0);
  const target = Math.max(100, Math.round((wealth * 0.8) / 200) * 100);
  const goal = await createItem(
    deps,
    actor,
    { ...GOAL, goal: target, category: 'turma', currency: 'meritus', deadline, turmaIds: [turma.id] },
    {},
  );
  let raised = 0;
  for (const [index, student] of classmates.entries()) {
    const share = index === classmates.length - 1 ? target / 2 - raised : Math.floor(((target / 2) * student.meritus) / wealth);
    if (share < 1) continue;
    await contribute(deps, actorOf(student), goal.id, { amount: share }, { at: recent(10 - index) });
    raised += share;
  }
}
