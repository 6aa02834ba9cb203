import { appendFileSync } from 'node:fs';

/** Module customization hook (runs in the loader's own thread): records each resolved URL. */
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const file = process.env.RECORD_IMPORTS_FILE;
  if (file) appendFileSync(file, `${result.url}\n`);
  return result;
}
