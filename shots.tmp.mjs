import { chromium } from '@playwright/test';
const B = 'http://127.0.0.1:3344';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
async function ctx(role, width, height) {
  const context = await browser.newContext({ baseURL: B, viewport: { width, height }, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
  const r = role === 'admin' ? await context.request.post('/api/auth/admin/login', { data: { email: 'admin@escola.com', password: 'admin123' } }) : await context.request.post('/api/auth/student/login', { data: { studentId: '2024001', password: 'aluno123' } });
  if (r.status() !== 200) throw new Error('login ' + r.status());
  return context;
}
const wait = (ms) => new Promise((r) => setTimeout(r, ms));
async function shot(page, name) { await wait(600); await page.screenshot({ path: `/tmp/shots/${name}.png` }); }
for (const [w, h, tag] of [[1440, 900, 'd'], [390, 844, 'm']]) {
  const s = await ctx('student', w, h);
  const p = await s.newPage();
  await p.goto('/student/ranking'); await p.getByRole('heading', { level: 1 }).waitFor();
  await p.mouse.wheel(0, 900); await shot(p, `ranking-${tag}`);
  await p.goto('/student/recent-operations'); await p.getByRole('heading', { level: 1 }).waitFor(); await shot(p, `ops-${tag}`);
  await p.goto('/student/transfer'); await p.getByRole('heading', { level: 1 }).waitFor(); await shot(p, `transfer-${tag}`);
  await p.goto('/student'); await p.getByRole('heading', { level: 1 }).waitFor(); await shot(p, `student-dash-${tag}`);
  await s.close();
  const a = await ctx('admin', w, h);
  const q = await a.newPage();
  await q.goto('/admin'); await q.getByRole('heading', { level: 1 }).waitFor(); await shot(q, `admin-dash-${tag}`);
  await q.goto('/admin/recent-operations'); await q.getByRole('heading', { level: 1 }).waitFor(); await q.mouse.wheel(0, 700); await shot(q, `live-scrolled-${tag}`);
  await q.goto('/admin/backend'); await q.getByRole('heading', { level: 1 }).waitFor(); await q.getByRole('tab', { name: 'Entidades' }).click(); await shot(q, `entities-${tag}`);
  await q.getByRole('tab', { name: 'Visão Geral' }).click(); await shot(q, `backend-overview-${tag}`);
  await q.goto('/admin/estelecas'); await q.getByRole('heading', { level: 1 }).waitFor();
  await q.getByRole('button', { name: 'Adicionar Estelecas' }).click();
  await q.getByRole('dialog').getByRole('button', { name: 'Adicionar' }).click(); await shot(q, `est-dialog-error-${tag}`);
  await q.keyboard.press('Escape');
  await q.goto('/admin/students'); await q.getByRole('heading', { level: 1 }).waitFor(); await q.getByRole('button', { name: 'Adicionar Aluno' }).click(); await shot(q, `add-student-${tag}`);
  await a.close();
}
await browser.close();
