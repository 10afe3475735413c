import { describe, expect, test } from 'vitest';
import { generateReadablePassword, isAcceptablePhotoUrl, parseBirthDate, photoUrlProblem, sniffImageType } from './admin-students.ts';

describe('parseBirthDate', () => {
  const today = new Date('2026-11-22T12:00:00Z');
  test.each([
    ['05/03/2010', '2010-03-05'],
    ['5/3/2010', '2010-03-05'],
    ['05-03-2010', '2010-03-05'],
    ['05.03.2010', '2010-03-05'],
    ['2010-03-05', '2010-03-05'],
    ['29/02/2012', '2012-02-29'],
  ])('%s → %s', (raw, iso) => {
    expect(parseBirthDate(raw, today)).toBe(iso);
  });

  test.each(['31/02/2010', '29/02/2011', '13/13/2010', '2010/03/05', '05/03/10', 'ontem', '01/01/2030', '01/01/1850'])(
    '%j is refused',
    (raw) => {
      expect(parseBirthDate(raw, today)).toBeNull();
    },
  );
});

describe('isAcceptablePhotoUrl', () => {
  test.each([
    ['https://cdn.exemplo.com.br/foto.jpg', true],
    ['/uploads/avatars/ana.webp', true],
    ['http://exemplo.com/foto.jpg', false],
    ['data:image/png;base64,AAAA', false],
    ['javascript:alert(1)', false],
    ['/uploads/../server.lock', false],
    ['/etc/passwd', false],
    ['foto.jpg', false],
  ])('%s → %s', (url, ok) => {
    expect(isAcceptablePhotoUrl(url)).toBe(ok);
  });

  test('an http address is told to use https; other refusals keep the general message', () => {
    expect(photoUrlProblem('http://exemplo.com/foto.jpg')).toBe('photo_url_not_https');
    expect(photoUrlProblem('ftp://exemplo.com/foto.jpg')).toBe('invalid_photo_url');
    expect(photoUrlProblem('foto.jpg')).toBe('invalid_photo_url');
    expect(photoUrlProblem('https://exemplo.com/foto.jpg')).toBeNull();
  });
});

describe('sniffImageType', () => {
  test.each([
    [[0xff, 0xd8, 0xff, 0xe0], 'image/jpeg'],
    [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0], 'image/png'],
    [[...Buffer.from('GIF89a')], 'image/gif'],
    [[...Buffer.from('RIFF\0\0\0\0WEBPVP8 ')], 'image/webp'],
    [[...Buffer.from('<svg xmlns=')], null],
    [[...Buffer.from('%PDF-1.7')], null],
    [[...Buffer.from('RIFF\0\0\0\0WAVEfmt ')], null],
    [[], null],
  ])('%j → %s', (bytes, type) => {
    expect(sniffImageType(new Uint8Array(bytes))).toBe(type);
  });
});

describe('generateReadablePassword', () => {
  test('looks like "kmtr-vbaq-47", avoids look-alike characters and does not repeat', () => {
    const passwords = Array.from({ length: 500 }, () => generateReadablePassword());
    for (const password of passwords) expect(password).toMatch(/^[a-hjkmnp-z]{4}-[a-hjkmnp-z]{4}-[2-9]{2}$/);
    expect(new Set(passwords).size).toBe(500);
  });
});
