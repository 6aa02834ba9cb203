import type { SmtpSettings } from '../../rules/rules.js';

/**
 * The values an SMTP error excerpt must never show: the user and password (also as AUTH PLAIN sends them,
 * `\0user\0pass`, which the excerpt masks in base64 too) and the whole URL form, which may carry both.
 */
export function smtpSecrets(smtp: SmtpSettings): string[] {
  const credentials = 'url' in smtp ? fromUrl(smtp.url) : smtp.auth;
  const secrets = 'url' in smtp ? [smtp.url] : [];
  if (credentials !== null) {
    secrets.push(credentials.user, credentials.pass, `\u0000${credentials.user}\u0000${credentials.pass}`);
  }
  return secrets.filter((secret) => secret !== '');
}

function fromUrl(url: string): { user: string; pass: string } | null {
  try {
    const parsed = new URL(url);
    return { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) };
  } catch {
    return null;
  }
}
