/** Runs `run` once to warm up, then `runs` times; returns the durations in ms, sorted ascending. */
export async function sortedDurations(runs: number, run: () => Promise<unknown>): Promise<number[]> {
  await run();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b);
}
