import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * A throw-away self-signed certificate for 127.0.0.1 in `dir` (openssl, as the README's trial certificate), for
 * the server's TLS_CERT_FILE/TLS_KEY_FILE in tests and benchmarks: their clients ignore that it is not trusted.
 */
export function selfSignedCertificate(dir: string): { certFile: string; keyFile: string } {
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-keyout', keyFile, '-out', certFile],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile };
}
