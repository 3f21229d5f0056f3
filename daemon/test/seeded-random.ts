// A deterministic generator (mulberry32) for the fuzzers, so a failure can be replayed from its
// seed (FUZZ_SEED).
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const int = (n: number) => Math.floor(next() * n);
  return { next, pick, int, chance: (p: number) => next() < p };
}
