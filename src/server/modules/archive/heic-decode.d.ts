/** heic-decode ships no types: the part the archive uses. */
declare module 'heic-decode' {
  type Decoded = { width: number; height: number; data: Uint8ClampedArray };
  function decode(input: { buffer: Buffer | ArrayBuffer }): Promise<Decoded>;
  export default decode;
}
