const UNITS: readonly (readonly [unit: string, ms: number])[] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
  ['ms', 1],
];

/**
 * Milliseconds in the config's own notation, largest units first, so that what a command prints reads as it
 * was configured: `3s`, `1m30s`, `30d`, `1d12h`. Days, not weeks (`14d`, as the defaults are written);
 * parseDuration reads every result back to the same number. `0s` for zero.
 */
export function formatDuration(ms: number): string {
  let rest = Math.max(0, Math.round(ms));
  let text = '';
  for (const [unit, size] of UNITS) {
    const amount = Math.floor(rest / size);
    if (amount === 0) continue;
    text += `${amount}${unit}`;
    rest -= amount * size;
  }
  return text === '' ? '0s' : text;
}
