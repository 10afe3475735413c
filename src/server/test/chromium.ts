/**
 * Debian's Chromium and the flags it runs with here, for the browser tests and the benchmarks that load pages:
 * headless as root, and no background connections (this machine's closed network refuses them, many at a time).
 */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
