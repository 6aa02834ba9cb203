import type { HttpTargetSpec } from '../../../src/rules/rules.js';
import { rulesLoader } from '../../rules/support/load-rules-text.js';

/**
 * HTTP target specs compiled from YAML by the real rules loader (`{ type: http, ... }` options, one target
 * named `hook`). Call once per test file, at the top: it registers cleanup.
 */
export function httpSpecCompiler(): (options: string, env?: Record<string, string>) => HttpTargetSpec {
  const { compile } = rulesLoader();
  return (options, env = {}) => {
    const text = `targets:\n  hook:\n    type: http\n${options.replace(/^/gm, '    ')}\nroutes: [{ name: r, to: [hook] }]\nfallback: []\n`;
    return compile(text, env).targets.get('hook') as HttpTargetSpec;
  };
}
