import { expect, test } from 'vitest';
import { contentDisposition } from './serve-object.ts';

test("a download's name: an ASCII fallback that reads 'º' as 'o', and a UTF-8 name with only RFC 5987's characters left bare", () => {
  expect(contentDisposition('attachment', "relatorio-turma-1º-EM-Turma-A-d'Ouro-(noite)*.pdf")).toBe(
    `attachment; filename="relatorio-turma-1o-EM-Turma-A-d'Ouro-(noite)*.pdf"; ` +
      "filename*=UTF-8''relatorio-turma-1%C2%BA-EM-Turma-A-d%27Ouro-%28noite%29%2A.pdf",
  );
  expect(contentDisposition('inline', 'Conceição 🎉.png')).toBe(
    `inline; filename="Conceicao _.png"; filename*=UTF-8''Concei%C3%A7%C3%A3o%20%F0%9F%8E%89.png`,
  );
});
