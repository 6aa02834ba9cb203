import type { EmailTargetSpec, PartialRefusalPolicy } from '../rules.js';
import { compileSmtpSettings } from './compile-smtp-settings.js';
import { compileTargetBasics } from './compile-target-basics.js';
import type { TargetContext } from './target-context.js';
import { asString, asStrings, type EmailTargetYaml } from './target-yaml.js';

/** E-mail through SMTP; the HTML body escapes inserted values as HTML, subject and text take them as they are. */
export function compileEmailTarget(yaml: EmailTargetYaml, target: TargetContext): EmailTargetSpec {
  return {
    ...compileTargetBasics(yaml, 'email', target),
    smtp: compileSmtpSettings(yaml.smtp, target),
    // The default keeps an on-call address that refused the message owed it, without resending to the others.
    onPartialRefusal: (asString(yaml.on_partial_refusal) as PartialRefusalPolicy | undefined) ?? 'retry_refused',
    from: asString(yaml.from) ?? '',
    to: asStrings(yaml.to),
    cc: asStrings(yaml.cc),
    subject: target.template(yaml.subject, 'none', 'subject'),
    text: target.template(yaml.text, 'none', 'text'),
    html: target.template(yaml.html, 'html', 'html'),
  };
}
