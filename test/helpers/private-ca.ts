import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const at = (file: string) => fileURLToPath(new URL(`../fixtures/private-ca/${file}`, import.meta.url));

/**
 * A private CA and a server certificate it signed for localhost and 127.0.0.1 (test/fixtures/private-ca,
 * made by its make.sh): what an in-house relay presents. No system trusts the CA.
 */
export const PRIVATE_CA = {
  caFile: at('ca.pem'),
  ca: readFileSync(at('ca.pem'), 'utf8'),
  /** The server's key and certificate, for `startSmtpServer({ tls })` or an HTTPS listener. */
  server: { key: readFileSync(at('leaf-key.pem'), 'utf8'), cert: readFileSync(at('leaf.pem'), 'utf8') },
} as const;
