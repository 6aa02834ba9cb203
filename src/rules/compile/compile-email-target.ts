import type { EmailTargetSpec } from '../rules.js';
import { compileDeliveryPolicy } from './compile-delivery-policy.js';
import { compileSmtpSettings } from './compile-smtp-settings.js';
import type { TargetContext } from './target-context.js';
import { asBoolean, asString, asStrings, type EmailTargetYaml } from './target-yaml.js';

/** E-mail through SMTP; the HTML body escapes inserted values as HTML, subject and text take them as they are. */
export function compileEmailTarget(yaml: EmailTargetYaml, target: TargetContext): EmailTargetSpec {
  return {
    name: target.name,
    type: 'email',
    policy: compileDeliveryPolicy(yaml, 'email', target),
    allowLinkLocal: asBoolean(yaml.allow_link_local) ?? false,
    smtp: compileSmtpSettings(yaml.smtp, target),
    from: asString(yaml.from) ?? '',
    to: asStrings(yaml.to),
    cc: asStrings(yaml.cc),
    subject: target.template(yaml.subject, 'none', 'subject'),
    text: target.template(yaml.text, 'none', 'text'),
    html: target.template(yaml.html, 'html', 'html'),
  };
}
