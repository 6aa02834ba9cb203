import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface DocYamlBlock {
  /** 1-based line of the opening fence, to name the block in a failure. */
  readonly line: number;
  readonly text: string;
}

/**
 * Every fenced ```yaml block of a file under docs/, as a reader would copy it. Only top-level fences count:
 * an indented fence belongs to a list item, and the docs keep target examples at the top level.
 */
export function docYamlBlocks(docFile: string): DocYamlBlock[] {
  const lines = readFileSync(fileURLToPath(new URL(`../../../docs/${docFile}`, import.meta.url)), 'utf8').split('\n');
  const blocks: DocYamlBlock[] = [];
  let open: { line: number; body: string[] } | undefined;
  for (const [index, line] of lines.entries()) {
    if (open === undefined && line.trim() === '```yaml' && !line.startsWith(' ')) open = { line: index + 1, body: [] };
    else if (open !== undefined && line === '```') {
      blocks.push({ line: open.line, text: `${open.body.join('\n')}\n` });
      open = undefined;
    } else open?.body.push(line);
  }
  if (open !== undefined) throw new Error(`docs/${docFile}:${open.line}: unclosed yaml block`);
  return blocks;
}

/**
 * A placeholder for each `${VAR}` the text references, shaped as the variable's name says (a URL, an e-mail
 * address, a PagerDuty routing key, or an opaque secret), so the rules compiler's own checks on URLs,
 * addresses and routing keys still run.
 */
export function placeholderEnv(text: string): Record<string, string> {
  const names = [...text.matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((match) => match[1] ?? '');
  return Object.fromEntries(names.map((name) => [name, placeholder(name)]));
}

function placeholder(name: string): string {
  if (name === 'SMTP_URL') return 'smtp://mailer:smtp-placeholder-secret@smtp.example.com:587';
  if (name.endsWith('_URL')) return 'https://hooks.slack.example/services/T000/B000/placeholder-secret';
  if (name.endsWith('_EMAIL')) return 'soc-placeholder@example.com';
  // PagerDuty integration keys have 32 characters; `check` refuses any other length.
  if (name.endsWith('_ROUTING_KEY')) return `placeholder-${name.length.toString().padStart(20, '0')}`;
  return `placeholder-${name.toLowerCase()}-0123456789abcdef`;
}
