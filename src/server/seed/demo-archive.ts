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

const IMAGES: DemoImage[] = [
  {
    name: 'perfil-leao.png',
    title: 'Leão',
    colours: ['#f59e0b', '#b45309'],
    size: [256, 256],
    category: 'perfil',
    tags: 'avatar, animais',
    format: 'png',
  },
  {
    name: 'perfil-coruja.png',
    title: 'Coruja',
    colours: ['#8b5cf6', '#4c1d95'],
    size: [256, 256],
    category: 'perfil',
    tags: 'avatar, animais',
    format: 'png',
  },
  {
    name: 'perfil-foguete.png',
    title: 'Foguete',
    colours: ['#0ea5e9', '#075985'],
    size: [256, 256],
    category: 'perfil',
    tags: 'avatar, espaço',
    format: 'png',
  },
  {
    name: 'perfil-livro.png',
    title: 'Livro',
    colours: ['#10b981', '#065f46'],
    size: [256, 256],
    category: 'perfil',
    tags: 'avatar, leitura',
    format: 'png',
  },
  {
    name: 'perfil-planeta.png',
    title: 'Planeta',
    colours: ['#ec4899', '#831843'],
    size: [256, 256],
    category: 'perfil',
    tags: 'avatar, espaço',
    format: 'png',
    uploader: 1,
  },
  {
    name: 'banner-feira-de-ciencias.jpg',
    title: 'Feira de Ciências 2024',
    colours: ['#1d4ed8', '#0f172a'],
    size: [960, 320],
    category: 'banner',
    tags: 'feira, ciências, eventos',
    album: 'Feira de Ciências',
    featured: true,
  },
  {
    name: 'banner-gincana.jpg',
    title: 'Gincana Cultural',
    colours: ['#dc2626', '#7f1d1d'],
    size: [960, 320],
    category: 'banner',
    tags: 'gincana, eventos',
    album: 'Gincana',
    featured: true,
  },
  {
    name: 'banner-olimpiada-matematica.jpg',
    title: 'Olimpíada de Matemática',
    colours: ['#059669', '#064e3b'],
    size: [960, 320],
    category: 'banner',
    tags: 'matemática, olimpíada',
    uploader: 1,
  },
  {
    name: 'banner-semana-leitura.jpg',
    title: 'Semana da Leitura',
    colours: ['#7c3aed', '#2e1065'],
    size: [960, 320],
    category: 'banner',
    tags: 'leitura, eventos',
    access: 'restricted',
  },
  {
    name: 'icone-medalha.png',
    title: 'Medalha',
    colours: ['#facc15', '#a16207'],
    size: [128, 128],
    category: 'icone',
    tags: 'conquista, medalha',
    format: 'png',
  },
  {
    name: 'icone-estrela.png',
    title: 'Estrela',
    colours: ['#fde047', '#ca8a04'],
    size: [128, 128],
    category: 'icone',
    tags: 'conquista',
    format: 'png',
  },
  {
    name: 'icone-trofeu.svg',
    title: 'Troféu',
    colours: ['#f97316', '#9a3412'],
    size: [128, 128],
    category: 'icone',
    tags: 'conquista, troféu',
    format: 'svg',
  },
  {
    name: 'ilustracao-sistema-solar.jpg',
    title: 'Sistema Solar',
    colours: ['#312e81', '#020617'],
    size: [640, 480],
    category: 'ilustracao',
    tags: 'astronomia, ciências',
    album: 'Feira de Ciências',
    uploader: 1,
  },
  {
    name: 'ilustracao-celula.jpg',
    title: 'Célula Animal',
    colours: ['#16a34a', '#14532d'],
    size: [640, 480],
    category: 'ilustracao',
    tags: 'biologia, ciências',
    album: 'Feira de Ciências',
    uploader: 1,
  },
  {
    name: 'ilustracao-mapa-brasil.jpg',
    title: 'Mapa do Brasil',
    colours: ['#65a30d', '#1a2e05'],
    size: [640, 480],
    category: 'ilustracao',
    tags: 'geografia',
    access: 'restricted',
  },
  {
    name: 'documento-calendario-provas.png',
    title: 'Calendário de Provas',
    colours: ['#e5e7eb', '#6b7280'],
    size: [480, 640],
    category: 'documento',
    tags: 'provas, calendário',
    access: 'private',
    format: 'png',
  },
  {
    name: 'documento-regras-meritus.png',
    title: 'Regras do Méritus',
    colours: ['#f1f5f9', '#475569'],
    size: [480, 640],
    category: 'documento',
    tags: 'regras, méritus',
    format: 'png',
  },
  {
    name: 'biblioteca-acervo.jpg',
    title: 'Acervo da Biblioteca',
    colours: ['#92400e', '#451a03'],
    size: [640, 427],
    category: 'biblioteca',
    tags: 'biblioteca, livros',
    uploader: 2,
  },
  {
    name: 'biblioteca-clube-leitura.jpg',
    title: 'Clube de Leitura',
    colours: ['#b45309', '#431407'],
    size: [640, 427],
    category: 'biblioteca',
    tags: 'leitura, clube',
    uploader: 2,
  },
  {
    name: 'galeria-formatura.jpg',
    title: 'Formatura 3º EM',
    colours: ['#0f766e', '#042f2e'],
    size: [800, 533],
    category: 'galeria',
    tags: 'formatura, turma',
    album: 'Formatura',
    featured: true,
  },
  {
    name: 'galeria-excursao.jpg',
    title: 'Excursão ao Museu',
    colours: ['#be123c', '#4c0519'],
    size: [800, 533],
    category: 'galeria',
    tags: 'excursão, museu',
    album: 'Excursão',
  },
  {
    name: 'galeria-jogos-interclasse.jpg',
    title: 'Jogos Interclasse',
    colours: ['#2563eb', '#172554'],
    size: [800, 533],
    category: 'galeria',
    tags: 'esportes, eventos',
  },
  {
    name: 'galeria-quadra.jpg',
    title: 'Quadra Reformada',
    colours: ['#475569', '#0f172a'],
    size: [800, 533],
    category: 'galeria',
    tags: 'escola',
    access: 'admin',
    uploader: 2,
  },
  {
    name: 'outros-cartaz-antigo.jpg',
    title: 'Cartaz Antigo',
    colours: ['#78716c', '#292524'],
    size: [480, 640],
    category: 'outros',
    tags: 'arquivo',
    uploader: 2,
  },
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
    const [result] = await storeUploads(
      deps,
      { role: 'admin', id: admin.id, name: admin.name, email: admin.email },
      [{ fileName: image.name, staged }],
      fields,
    );
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
