import type { Liquid } from 'liquidjs';
import { SwitchyardError } from '../switchyard-error.js';
import { createLiquid, TEMPLATE_LIMITS } from './create-liquid.js';
import { describeLiquidError } from './describe-liquid-error.js';
import { readSimpleOutput } from './read-simple-output.js';
import type { Template, TemplateContext, TemplateEscape } from './template.js';

/** Parses `source` once; throws a `SwitchyardError` coded `template_syntax` with the line/column in the template. */
export function compileTemplate(source: string, escape: TemplateEscape = 'none'): Template {
  return compileTemplateWith(createLiquid(escape), source);
}

/** For callers compiling many templates with the same escape (a template tree): one engine for all of them. */
export function compileTemplateWith(liquid: Liquid, source: string): Template {
  let parsed: ReturnType<Liquid['parse']>;
  try {
    parsed = liquid.parse(source);
  } catch (error) {
    throw new SwitchyardError('template_syntax', describeLiquidError(error), { cause: error });
  }
  // Only where nothing is escaped: the escaping engines print through their own output filter.
  const simple = liquid.options.outputEscape === undefined ? readSimpleOutput(source) : undefined;
  return {
    source,
    render(context: TemplateContext): string {
      const quick = simple?.(context);
      if (quick !== undefined && quick.length <= TEMPLATE_LIMITS.outputLimit) return quick;
      let output: string;
      try {
        output = liquid.renderSync(parsed, context) as string;
      } catch (error) {
        throw new SwitchyardError('template_render', `template failed to render: ${describeLiquidError(error)}`, {
          cause: error,
        });
      }
      // Checked before anything copies the string: a long result is still a cheap rope until then.
      if (output.length > TEMPLATE_LIMITS.outputLimit) {
        throw new SwitchyardError(
          'template_render',
          `template output is ${output.length} characters, over the limit of ${TEMPLATE_LIMITS.outputLimit}`,
        );
      }
      return output;
    },
  };
}
