import type { SmtpSettings } from '../../rules/rules.js';

/**
 * The values an SMTP error excerpt must never show: the password (also with the user as AUTH PLAIN sends
 * them, `\0user\0pass`, and as `user:pass`; the excerpt masks their base64 forms too) and the whole URL form,
 * which may carry both. The user name alone is not secret: servers quote it, and it is often a plain word.
 */
export function smtpSecrets(smtp: SmtpSettings): string[] {
  const credentials = 'url' in smtp ? fromUrl(smtp.url) : smtp.auth;
  const secrets = 'url' in smtp ? [smtp.url] : [];
  if (credentials !== null && credentials.pass !== '') {
    secrets.push(
      credentials.pass,
      `${credentials.user}:${credentials.pass}`,
      `\u0000${credentials.user}\u0000${credentials.pass}`,
    );
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
