/**
 * A certificate authority and server certificates made with openssl in a test's temp folder, as
 * an operator's own CA would make them: the CA's certificate is what a client is told to trust
 * (NODE_EXTRA_CA_CERTS, `ca:`), the server gets its certificate and key as files. And the
 * certificate a TLS server actually presents, read over a real connection.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { connect } from 'node:tls';

export interface TestCa {
  readonly dir: string;
  /** The CA's certificate (PEM file): what clients trust. */
  readonly certFile: string;
  readonly keyFile: string;
}

export interface IssuedCertificate {
  readonly certFile: string;
  readonly keyFile: string;
  /** Serial number as hex, upper case (as X509Certificate.serialNumber gives it). */
  readonly serial: string;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/**
 * A CA valid for two days, in `dir`.
 * @example const ca = makeTestCa(dir); process.env.NODE_EXTRA_CA_CERTS = ca.certFile
 */
export function makeTestCa(dir: string, name = 'Marquee Test CA'): TestCa {
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  return { dir, certFile: join(dir, 'ca.crt'), keyFile: join(dir, 'ca.key') };
}

/**
 * A server certificate from `ca` for `names` (DNS names and IP addresses), with this serial,
 * written as `{prefix}.crt` (the certificate then the CA's, as a full chain) and `{prefix}.key`.
 * @example const cert = issueCertificate(ca, dir, 'server', { serial: 0x1001 })
 */
export function issueCertificate(
  ca: TestCa,
  dir: string,
  prefix: string,
  options: { serial: number; names?: readonly string[] },
): IssuedCertificate {
  const names = options.names ?? ['localhost', '127.0.0.1'];
  const san = names.map((n) => (/^[\d.]+$|:/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(',');
  writeFileSync(
    join(dir, `${prefix}.ext`),
    `subjectAltName=${san}\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n`,
  );
  openssl(dir, [
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    `${prefix}.key`,
    '-out',
    `${prefix}.csr`,
    '-subj',
    `/CN=${names[0]}`,
  ]);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${prefix}.csr`,
    '-CA',
    ca.certFile,
    '-CAkey',
    ca.keyFile,
    '-set_serial',
    `0x${options.serial.toString(16)}`,
    '-days',
    '2',
    '-out',
    `${prefix}.leaf.crt`,
    '-extfile',
    `${prefix}.ext`,
  ]);
  const chain = readFileSync(join(dir, `${prefix}.leaf.crt`), 'utf8') + readFileSync(ca.certFile, 'utf8');
  writeFileSync(join(dir, `${prefix}.crt`), chain);
  return {
    certFile: join(dir, `${prefix}.crt`),
    keyFile: join(dir, `${prefix}.key`),
    serial: options.serial.toString(16).toUpperCase().padStart(2, '0'),
  };
}

/**
 * The serial number of the certificate a TLS server on 127.0.0.1 presents for `servername`, the
 * connection verified against `caFile`.
 * @example await servedSerial(8443, ca.certFile) // '1001'
 */
export function servedSerial(port: number, caFile: string, servername = 'localhost'): Promise<string> {
  return new Promise((resolve, reject) => {
    // An IP address is no server name (RFC 6066): the certificate is then checked against the host.
    const name = isIP(servername) ? {} : { servername };
    const socket = connect({ host: '127.0.0.1', port, ...name, ca: readFileSync(caFile) }, () => {
      const serial = socket.getPeerCertificate().serialNumber;
      socket.end();
      resolve(serial);
    });
    socket.on('error', reject);
  });
}

/** An answer read over https. */
export interface HttpsAnswer {
  readonly status: number;
  readonly text: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

/**
 * GET `url` over https, connecting to 127.0.0.1 whatever its host, trusting only `caFile`: the
 * URL's name is asked for (SNI, Host) and checked against the certificate, as a client on the
 * network would.
 * @example const answer = await httpsGet('https://localhost:7443/manifest.json', ca.certFile)
 */
export function httpsGet(url: string, caFile: string): Promise<HttpsAnswer> {
  const u = new URL(url);
  const hostname = u.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port: u.port || 443,
        path: u.pathname + u.search,
        ...(isIP(hostname) ? {} : { servername: hostname }),
        headers: { host: u.host },
        ca: readFileSync(caFile),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
