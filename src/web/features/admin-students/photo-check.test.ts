import { describe, expect, test } from 'vitest';
import { checkImageUrl, checkPhotoFile } from './photo-check.ts';

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];

describe('checkPhotoFile', () => {
  test('accepts a PNG by name and bytes', async () => {
    expect(await checkPhotoFile(new File([new Uint8Array(PNG_HEAD)], 'foto.png', { type: 'image/png' }))).toBeNull();
  });

  test('refuses a text file renamed to .jpg, by its bytes', async () => {
    const file = new File(['apenas texto'], 'foto.jpg', { type: 'image/jpeg' });
    expect(await checkPhotoFile(file)).toBe('Formato não suportado. Use JPG, PNG, GIF ou WebP.');
  });

  test('refuses other types by name', async () => {
    const file = new File([new Uint8Array(PNG_HEAD)], 'foto.bmp', { type: 'image/bmp' });
    expect(await checkPhotoFile(file)).toBe('Formato não suportado. Use JPG, PNG, GIF ou WebP.');
  });

  test('refuses more than 5 MB', async () => {
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(PNG_HEAD);
    expect(await checkPhotoFile(new File([big], 'grande.png', { type: 'image/png' }))).toBe('Arquivo muito grande. Máximo 5MB.');
  });
});

describe('checkImageUrl', () => {
  test.each(['', 'não é url', 'http://exemplo.com/a.png', 'javascript:alert(1)'])('%j is refused before any request', async (url) => {
    expect(await checkImageUrl(url, 50)).toBe(false);
  });
});
