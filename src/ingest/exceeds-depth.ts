/**
 * Whether `value` nests objects or arrays deeper than `max` levels (the value itself is level 1). Iterative,
 * with an explicit stack, so a hostile depth cannot overflow the call stack here as it did in the recursive
 * code after it (deep-freeze, severity reading, rendering) before this check existed (issue 10, item 5).
 */
export function exceedsDepth(value: unknown, max: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth > max) return true;
    for (const child of Object.values(next.value)) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: next.depth + 1 });
    }
  }
  return false;
}
