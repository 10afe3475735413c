/** The header that carries a request's id both ways: from a trusted proxy, and back on every answer. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * The id as a teacher reads it out from an error message: its first eight letters and
 * digits in capitals, split in two ('7F3K-2Q9M'). The server's own ids are exactly that;
 * a proxy's longer id (a UUID, nginx's $request_id) is found in the logs by the same
 * characters without the dash (grep -i). Null when the id has too little to read out.
 */
export function requestCode(id: string | null | undefined): string | null {
  const characters = (id ?? '')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 8)
    .toUpperCase();
  if (characters.length < 4) return null;
  return characters.length > 4 ? `${characters.slice(0, 4)}-${characters.slice(4)}` : characters;
}
