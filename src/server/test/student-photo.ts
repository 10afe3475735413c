import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { TestApp } from './test-app.ts';

/** Uploads a photo for a student as the coordination's form does (multipart, field "file"); answers its address. */
export async function uploadStudentPhoto(t: TestApp, studentUuid: string, cookie: string): Promise<string> {
  const boundary = `----photo${randomUUID()}`;
  const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366aa' } })
    .png()
    .toBuffer();
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="foto.png"\r\nContent-Type: image/png\r\n\r\n`),
    image,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/admin/students/${studentUuid}/photo`,
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().student.photo as string;
}
