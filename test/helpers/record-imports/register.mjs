// `node --import <this file>`: writes the URL of every module the process resolves to $RECORD_IMPORTS_FILE,
// one a line (hooks.mjs), so a test can tell which packages a real process loaded.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
