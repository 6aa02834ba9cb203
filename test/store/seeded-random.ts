/** Integers in [0, n) from a seed: randomised tests run the same trials every time, so a failure repeats. */
export function seededRandom(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return Math.floor((state / 2 ** 31) * n); // the high bits: an LCG's low bits repeat with short periods
  };
}
