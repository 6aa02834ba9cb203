/**
 * An env file's text with `NAME=value` set: the first line assigning NAME (also `export NAME=`) is replaced
 * and any later one removed, so that readers that take the first or the last assignment agree; otherwise the
 * line is appended. Other lines, comments included, stay as they are. The value must need no quoting
 * (the caller checks): env file readers (node --env-file, systemd, docker) disagree on quotes.
 */
export function setEnvLine(text: string, name: string, value: string): string {
  const assigns = new RegExp(`^\\s*(?:export\\s+)?${name}\\s*=`);
  const lines = text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
  let replaced = false;
  const kept = lines.flatMap((line) => {
    if (!assigns.test(line)) return [line];
    if (replaced) return [];
    replaced = true;
    return [`${name}=${value}`];
  });
  if (!replaced) kept.push(`${name}=${value}`);
  return `${kept.join('\n')}\n`;
}
