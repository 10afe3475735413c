import { asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { hallOfFameHonours, schoolYearRollovers, schoolYears, students } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { fileSlug, formatterIn, render } from '../../pdf.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { auditActor, turmaScopeOf, type Principal } from '../auth/actor.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import { CERTIFICATE_PAGE, drawCertificate } from '../reports/report-pdfs.ts';
import { reportSchool, schoolLogoPng } from '../reports/report-school.ts';
import type { ExportFile } from '../reports/report-exports.ts';
import { isHiddenFrom, rankingPrivacyOf, shownTo, viewerOf, type RankingPrivacy, type Viewer } from '../../views/student-privacy.ts';
import { photoAddress } from '../../views/student-views.ts';
import { assertStudentInScope, inScope } from '../../views/turma-scope.ts';
import { childIdsOf } from '../families/families.service.ts';
import { formatDate } from '../../../shared/format.ts';
import { RANKING_PRIVACY_TEXTS } from '../../../shared/ranking-privacy.ts';
import type { HallOfFame, Honour } from '../../../shared/hall-of-fame.ts';
import {
  HALL_OF_FAME_TEXTS,
  HONOUR_CATEGORIES,
  honourFigure,
  honourTitle,
  type HonourCategory,
} from '../../../shared/hall-of-fame-texts.ts';

/** What the Hall da Fama reads: the database, the settings (privacy rules, the school for the certificate) and its logo. */
export type HallOfFameDeps = { db: Db; settings: SettingsStore; storage: FileStorage };

type HonourRow = Awaited<ReturnType<typeof honourRows>>[number];

/** A year's honours with their students as they are now (names read at display time: an erasure reaches them). */
function honourRows(db: Db, yearId: string) {
  return db
    .select({
      id: hallOfFameHonours.id,
      category: hallOfFameHonours.category,
      place: hallOfFameHonours.place,
      amount: hallOfFameHonours.amount,
      turmaName: hallOfFameHonours.turmaName,
      student: {
        id: students.id,
        studentId: students.studentId,
        name: students.name,
        turmaId: students.turmaId,
        photoUrl: students.photoUrl,
        photoVersion: students.photoVersion,
        imageConsent: students.imageConsent,
        rankingHidden: students.rankingHidden,
        erasedAt: students.erasedAt,
      },
    })
    .from(hallOfFameHonours)
    .leftJoin(students, eq(students.id, hallOfFameHonours.studentUuid))
    .where(eq(hallOfFameHonours.yearId, yearId))
    .orderBy(asc(hallOfFameHonours.place), asc(students.name));
}

/** The students a guardian follows (decision 037); nobody for anyone else. */
async function childrenOf(db: Db, principal: Principal): Promise<string[]> {
  return principal.role === 'guardian' ? childIdsOf(db, principal.id) : [];
}

/**
 * Whether the viewer may download the certificate of a student's honour: the student themself, their guardian, or staff
 * of the student's turma. A guardian is no staff: another family's child is refused like another student is.
 */
function mayDownload(
  principal: Principal,
  childIds: readonly string[],
  student: { id: string; turmaId: string; erasedAt: Date | null },
): boolean {
  if (student.erasedAt) return false;
  if (principal.role === 'student') return principal.id === student.id;
  if (principal.role === 'guardian') return childIds.includes(student.id);
  return inScope(turmaScopeOf(principal), student.turmaId);
}

/**
 * A student's honour as the viewer sees it (decision 029): an erased student is their anonymous name ('Aluno removido
 * #n') to everyone; one hidden from the viewer keeps the place without a name; anyone else as the school's rules show
 * them, the anonymous name being the row's number in the list.
 */
function shownHonour(
  viewer: Viewer,
  privacy: RankingPrivacy,
  principal: Principal,
  childIds: readonly string[],
  row: HonourRow,
  index: number,
): Honour {
  const student = row.student;
  const turma = row.category === 'turma' || row.category === 'goals' ? row.turmaName : null;
  const base = { id: row.id, place: row.place, amount: row.amount, turma };
  if (!student) return { ...base, student: null, self: false, erased: false, certificate: false };
  const erased = student.erasedAt !== null;
  const shown = erased
    ? { id: null, studentId: null, name: student.name, grade: row.turmaName, photo: null }
    : isHiddenFrom(viewer, privacy, student)
      ? { id: null, studentId: null, name: HALL_OF_FAME_TEXTS.hiddenHolder, grade: null, photo: null }
      : shownTo(
          viewer,
          privacy,
          {
            id: student.id,
            studentId: student.studentId,
            name: student.name,
            grade: row.turmaName,
            photo: photoAddress(student),
            photoShared: student.imageConsent,
          },
          RANKING_PRIVACY_TEXTS.anonymousRow(index + 1),
        );
  return {
    ...base,
    student: shown,
    self: viewer.kind === 'student' && viewer.id === student.id,
    erased,
    certificate: mayDownload(principal, childIds, student),
  };
}

/** The closed years, newest first. */
async function closedYears(db: Db) {
  return db
    .select({
      id: schoolYears.id,
      name: schoolYears.name,
      startDate: schoolYears.startDate,
      endDate: schoolYears.endDate,
      closedAt: schoolYearRollovers.appliedAt,
    })
    .from(schoolYears)
    .innerJoin(schoolYearRollovers, eq(schoolYearRollovers.yearId, schoolYears.id))
    .orderBy(desc(schoolYears.startDate));
}

/**
 * GET /api/hall-of-fame: a closed year's honours (the most recent without `year`), by category, as the school's privacy
 * rules show them to the viewer, and the list of closed years. No year closed yet: no year and no categories.
 */
export async function readHallOfFame(
  deps: HallOfFameDeps,
  principal: Principal,
  query: { year?: string | undefined },
): Promise<HallOfFame> {
  const years = await closedYears(deps.db);
  const year = query.year === undefined ? years[0] : years.find((candidate) => candidate.id === query.year);
  if (query.year !== undefined && !year) throw new AppError('hall_of_fame_year_not_found');
  const list = years.map(({ id, name, closedAt }) => ({ id, name, closedAt: closedAt.toISOString() }));
  if (!year) return { years: list, year: null, categories: [] };
  const privacy = rankingPrivacyOf((await deps.settings.get()).rules);
  const childIds = await childrenOf(deps.db, principal);
  const viewer = viewerOf(principal, childIds);
  const rows = await honourRows(deps.db, year.id);
  const ofCategory = (category: HonourCategory) =>
    rows
      .filter((row) => row.category === category)
      // School-wide lists by place (as read); the turmas' honours by turma.
      .sort((a, b) => (category === 'turma' ? a.turmaName.localeCompare(b.turmaName, 'pt-BR', { numeric: true }) : 0))
      .map((row, index) => shownHonour(viewer, privacy, principal, childIds, row, index));
  return {
    years: list,
    year: { id: year.id, name: year.name, closedAt: year.closedAt.toISOString(), startDate: year.startDate, endDate: year.endDate },
    categories: HONOUR_CATEGORIES.map((category) => ({ category, honours: ofCategory(category) })),
  };
}

/**
 * GET /api/hall-of-fame/honours/:id/certificate.pdf: the certificate (reports' drawCertificate) with the honour written on
 * it. A student downloads only their own; staff any (a teacher, of their turmas' students). A turma's honour or an
 * erased student's has none. Audited.
 */
export async function honourCertificatePdf(
  deps: HallOfFameDeps,
  principal: Principal,
  id: string,
  context: { ip?: string | undefined } = {},
): Promise<ExportFile> {
  const [row] = await deps.db
    .select({ honour: hallOfFameHonours, student: students, year: schoolYears })
    .from(hallOfFameHonours)
    .innerJoin(students, eq(students.id, hallOfFameHonours.studentUuid))
    .innerJoin(schoolYears, eq(schoolYears.id, hallOfFameHonours.yearId))
    .where(eq(hallOfFameHonours.id, id));
  if (!row || row.student.erasedAt) throw new AppError('honour_not_found');
  const { honour, student, year } = row;
  if (principal.role === 'admin') assertStudentInScope(turmaScopeOf(principal), student);
  else if (!mayDownload(principal, await childrenOf(deps.db, principal), student)) throw new AppError('honour_certificate_not_own');
  const school = await reportSchool(deps.settings);
  const logo = await schoolLogoPng(deps.storage, school.logoUrl);
  const title = honourTitle(honour.category, honour.place, year.name, honour.turmaName);
  const body = await render({ ...CERTIFICATE_PAGE, info: { Title: `${title}: ${student.name}`, Author: school.name } }, (doc) =>
    drawCertificate(
      doc,
      { school, logo, issued: formatterIn(school.timeZone).date(new Date()) },
      {
        name: student.name,
        turma: honour.turmaName,
        studentId: student.studentId,
        title,
        period: HALL_OF_FAME_TEXTS.certificatePeriod(
          formatDate(year.startDate),
          formatDate(year.endDate),
          honourFigure(honour.category, honour.amount),
        ),
      },
    ),
  );
  await recordAudit(deps.db, {
    actor: auditActor(principal),
    action: 'hall_of_fame.certificate',
    ip: context.ip,
    details: { honour: honour.id, yearId: year.id, studentUuid: student.id, studentId: student.studentId },
  });
  return {
    fileName: HALL_OF_FAME_TEXTS.certificateFileName(fileSlug(title), fileSlug(student.name)),
    contentType: 'application/pdf',
    body,
  };
}
