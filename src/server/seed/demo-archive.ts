import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Db } from '../db/client.ts';
import { admins, archiveImages } from '../db/schema.ts';
import type { FileStorage } from '../storage/file-storage.ts';
import { silentEvents } from '../realtime/event-bus.ts';
import { archiveStagingDir, stageUpload } from '../modules/archive/archive-files.ts';
import { searchTextOf } from '../modules/archive/archive-rows.ts';
import { storeUploads } from '../modules/archive/archive-uploads.service.ts';
import { archiveUploadFields, type ArchiveAccessLevel, type ArchiveCategory } from '../../shared/archive.ts';
import { seededRandom } from './seeded-random.ts';
import { coordinatorActor } from '../modules/auth/actor.ts';

type DemoImage = {
  name: string;
  title: string;
  colours: [string, string];
  size: [number, number];
  category: ArchiveCategory;
  tags: string;
  album?: string;
  access?: ArchiveAccessLevel;
  featured?: boolean;
  /** Index into UPLOADERS. */
  uploader?: number;
  format?: 'jpeg' | 'png' | 'svg';
};

/** Who uploaded the demo files: the demo administrator, a colleague without an account here, and files of unknown origin. */
const UPLOADERS = [
  null,
  { id: 'prof-marcos', name: 'Prof. Marcos Almeida', email: 'marcos.almeida@escola.com' },
  { id: 'unknown', name: null, email: null },
] as const;

/** One row of the table below: the fields every image has, in DemoImage's order, then the optional ones. */
function image(
  name: string,
  title: string,
  colours: DemoImage['colours'],
  size: DemoImage['size'],
  category: ArchiveCategory,
  tags: string,
  more: Partial<DemoImage> = {},
): DemoImage {
  return { name, title, colours, size, category, tags, ...more };
}

const IMAGES: DemoImage[] = [
  image('perfil-leao.png', 'Leão', ['#f59e0b', '#b45309'], [256, 256], 'perfil', 'avatar, animais', { format: 'png' }),
  image('perfil-coruja.png', 'Coruja', ['#8b5cf6', '#4c1d95'], [256, 256], 'perfil', 'avatar, animais', { format: 'png' }),
  image('perfil-foguete.png', 'Foguete', ['#0ea5e9', '#075985'], [256, 256], 'perfil', 'avatar, espaço', { format: 'png' }),
  image('perfil-livro.png', 'Livro', ['#10b981', '#065f46'], [256, 256], 'perfil', 'avatar, leitura', { format: 'png' }),
  image('perfil-planeta.png', 'Planeta', ['#ec4899', '#831843'], [256, 256], 'perfil', 'avatar, espaço', { format: 'png', uploader: 1 }),
  image(
    'banner-feira-de-ciencias.jpg',
    'Feira de Ciências 2024',
    ['#1d4ed8', '#0f172a'],
    [960, 320],
    'banner',
    'feira, ciências, eventos',
    { album: 'Feira de Ciências', featured: true },
  ),
  image('banner-gincana.jpg', 'Gincana Cultural', ['#dc2626', '#7f1d1d'], [960, 320], 'banner', 'gincana, eventos', {
    album: 'Gincana',
    featured: true,
  }),
  image(
    'banner-olimpiada-matematica.jpg',
    'Olimpíada de Matemática',
    ['#059669', '#064e3b'],
    [960, 320],
    'banner',
    'matemática, olimpíada',
    { uploader: 1 },
  ),
  image('banner-semana-leitura.jpg', 'Semana da Leitura', ['#7c3aed', '#2e1065'], [960, 320], 'banner', 'leitura, eventos', {
    access: 'restricted',
  }),
  image('icone-medalha.png', 'Medalha', ['#facc15', '#a16207'], [128, 128], 'icone', 'conquista, medalha', { format: 'png' }),
  image('icone-estrela.png', 'Estrela', ['#fde047', '#ca8a04'], [128, 128], 'icone', 'conquista', { format: 'png' }),
  image('icone-trofeu.svg', 'Troféu', ['#f97316', '#9a3412'], [128, 128], 'icone', 'conquista, troféu', { format: 'svg' }),
  image('ilustracao-sistema-solar.jpg', 'Sistema Solar', ['#312e81', '#020617'], [640, 480], 'ilustracao', 'astronomia, ciências', {
    album: 'Feira de Ciências',
    uploader: 1,
  }),
  image('ilustracao-celula.jpg', 'Célula Animal', ['#16a34a', '#14532d'], [640, 480], 'ilustracao', 'biologia, ciências', {
    album: 'Feira de Ciências',
    uploader: 1,
  }),
  image('ilustracao-mapa-brasil.jpg', 'Mapa do Brasil', ['#65a30d', '#1a2e05'], [640, 480], 'ilustracao', 'geografia', {
    access: 'restricted',
  }),
  image('documento-calendario-provas.png', 'Calendário de Provas', ['#e5e7eb', '#6b7280'], [480, 640], 'documento', 'provas, calendário', {
    access: 'private',
    format: 'png',
  }),
  image('documento-regras-meritus.png', 'Regras do Méritus', ['#f1f5f9', '#475569'], [480, 640], 'documento', 'regras, méritus', {
    format: 'png',
  }),
  image('biblioteca-acervo.jpg', 'Acervo da Biblioteca', ['#92400e', '#451a03'], [640, 427], 'biblioteca', 'biblioteca, livros', {
    uploader: 2,
  }),
  image('biblioteca-clube-leitura.jpg', 'Clube de Leitura', ['#b45309', '#431407'], [640, 427], 'biblioteca', 'leitura, clube', {
    uploader: 2,
  }),
  image('galeria-formatura.jpg', 'Formatura 3º EM', ['#0f766e', '#042f2e'], [800, 533], 'galeria', 'formatura, turma', {
    album: 'Formatura',
    featured: true,
  }),
  image('galeria-excursao.jpg', 'Excursão ao Museu', ['#be123c', '#4c0519'], [800, 533], 'galeria', 'excursão, museu', {
    album: 'Excursão',
  }),
  image('galeria-jogos-interclasse.jpg', 'Jogos Interclasse', ['#2563eb', '#172554'], [800, 533], 'galeria', 'esportes, eventos'),
  image('galeria-quadra.jpg', 'Quadra Reformada', ['#475569', '#0f172a'], [800, 533], 'galeria', 'escola', {
    access: 'admin',
    uploader: 2,
  }),
  image('outros-cartaz-antigo.jpg', 'Cartaz Antigo', ['#78716c', '#292524'], [480, 640], 'outros', 'arquivo', { uploader: 2 }),
];

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A drawing made here (no downloads): a diagonal gradient, a few circles and the title. */
function drawing({ title, colours, size: [width, height] }: DemoImage, random: () => number): string {
  const circles = Array.from({ length: 5 }, () => {
    const r = Math.round((0.08 + random() * 0.2) * Math.min(width, height));
    return (
      `<circle cx="${Math.round(random() * width)}" cy="${Math.round(random() * height)}" r="${r}" fill="#ffffff"` +
      ` fill-opacity="${(0.08 + random() * 0.15).toFixed(2)}"/>`
    );
  }).join('');
  // The title fits the image's central square, so it stays whole in the cards' and the picker's cropped thumbnails.
  const fontSize = Math.round(Math.min((0.9 * Math.min(width, height)) / (title.length * 0.62), height / 4));
  const gradient =
    '<linearGradient id="g" x1="0" y1="0" x2="1" y2="1">' +
    `<stop offset="0" stop-color="${colours[0]}"/><stop offset="1" stop-color="${colours[1]}"/></linearGradient>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs>${gradient}</defs>
<rect width="${width}" height="${height}" fill="url(#g)"/>${circles}
<text x="50%" y="54%" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="${fontSize}" fill="#ffffff">${escapeXml(title)}</text>
</svg>`;
}

/**
 * The demo school's image archive: two dozen images drawn at seed time, stored through the
 * same path as an upload (variants, hash, random keys), then spread over uploaders, access
 * levels, albums and dates, with some uses and downloads.
 */
export async function seedDemoArchive(db: Db, storage: FileStorage, dataDir: string): Promise<void> {
  const [admin] = await db.select().from(admins).where(eq(admins.adminId, 'admin001'));
  if (!admin) return;
  const random = seededRandom(2024);
  const deps = { db, storage, events: silentEvents, warn: () => {} };
  const stagingDir = archiveStagingDir(dataDir);
  for (const [index, image] of IMAGES.entries()) {
    const svg = drawing(image, random);
    const bytes =
      image.format === 'svg'
        ? Buffer.from(svg)
        : image.format === 'png'
          ? await sharp(Buffer.from(svg)).png().toBuffer()
          : await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
    const staged = await stageUpload(Readable.from([bytes]), stagingDir, () => false);
    const fields = archiveUploadFields.parse({
      description: image.title,
      tags: image.tags,
      category: image.category,
      albumName: image.album ?? '',
      accessLevel: image.access ?? 'public',
    });
    const [result] = await storeUploads(deps, coordinatorActor(admin), [{ fileName: image.name, staged }], fields);
    if (!result?.ok) throw new Error(`demo archive image not stored: ${image.name}`);
    const uploader = UPLOADERS[image.uploader ?? 0];
    const uploaderFields = uploader ? { uploadedBy: uploader.id, uploaderName: uploader.name, uploaderEmail: uploader.email } : {};
    const item = result.item;
    const createdAt = new Date(Date.now() - (90 - index * 3) * 86_400_000);
    const usage = Math.floor(random() * 25);
    await db
      .update(archiveImages)
      .set({
        isFeatured: image.featured ?? false,
        usageCount: usage,
        downloadCount: Math.floor(random() * 15),
        lastAccessedAt: usage > 0 ? new Date(createdAt.getTime() + random() * (Date.now() - createdAt.getTime())) : null,
        createdAt,
        updatedAt: createdAt,
        ...uploaderFields,
        searchText: searchTextOf({
          fileName: item.fileName,
          description: item.description,
          tags: item.tags,
          uploaderName: admin.name,
          uploaderEmail: admin.email,
          ...uploaderFields,
        }),
      })
      .where(eq(archiveImages.id, item.id));
  }
}
