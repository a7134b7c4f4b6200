/**
 * HTTPS for the Node adapter: the certificate and key read from their files, checked before they
 * are used, and read again when they change (a renewal every 60-90 days needs no restart). A
 * renewal caught half-written (a truncated certificate, a new certificate beside the old key) is
 * not used: the server keeps the certificate it has and says why, and takes the files once they
 * make a pair. Files are compared by content, not by mtime: a renewal within the same second,
 * or a symlink switched to another file (certbot's live/ folder), is still seen.
 */
import { X509Certificate } from 'node:crypto';
import type { Server as HttpsServer } from 'node:https';
import { createSecureContext } from 'node:tls';
import { MarqueeError } from '../errors.js';
import { readRegularFile } from './regular-file.js';

/**
 * A certificate chain or a key is a few KB; a megabyte is far past any real one. Each file is read
 * only if it is a regular file of at most this size (a FIFO, a device, a folder are refused at
 * once: regular-file.ts).
 */
const MAX_PEM_BYTES = 1024 * 1024;

export interface TlsOptions {
  /** PEM certificate file: the server's certificate, then its chain (`fullchain.pem`). */
  readonly certFile: string;
  /** PEM private key file of that certificate. */
  readonly keyFile: string;
  /** How often the files are read again to see a renewed certificate. Default 5 000 ms; 0 never. */
  readonly checkEveryMs?: number;
  /** Told about each changed pair of files: taken, or not taken (the old certificate is kept) and why. */
  readonly onReload?: (event: TlsReloadEvent) => void;
}

/** A certificate in use: what people check a renewal by. */
export interface TlsCertificateInfo {
  /** Serial number, hex, as `openssl x509 -serial` prints it. */
  readonly serial: string;
  /** End of validity, ISO 8601. */
  readonly validTo: string;
  /** The DNS names and IP addresses it covers (subjectAltName). */
  readonly names: readonly string[];
}

export type TlsReloadEvent =
  | ({ readonly ok: true } & TlsCertificateInfo)
  | { readonly ok: false; readonly message: string };

/** A certificate and key that make a pair, ready for the server. */
export interface TlsPair {
  readonly cert: Buffer;
  readonly key: Buffer;
  readonly info: TlsCertificateInfo;
}

/**
 * Read and check a certificate and its key: readable, PEM, and a pair. Throws INVALID_SETTINGS
 * naming the file at fault.
 *
 * @example const pair = await readTlsPair('/etc/marquee/fullchain.pem', '/etc/marquee/key.pem'); pair.info.serial
 */
export async function readTlsPair(certFile: string, keyFile: string): Promise<TlsPair> {
  const [cert, key] = await Promise.all([readPem(certFile, 'certificate'), readPem(keyFile, 'key')]);
  return checkPair(cert, key, certFile, keyFile);
}

async function readPem(file: string, what: 'certificate' | 'key'): Promise<Buffer> {
  try {
    return await readRegularFile(file, MAX_PEM_BYTES);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'file not found'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied (the user running marquee must be able to read it)'
          : code === 'EISDIR'
            ? 'is a directory, not a file'
            : code === 'ENOTREG'
              ? `is ${(error as { kind?: string }).kind ?? 'not a regular file'}, not a file`
              : code === 'EFBIG'
                ? `is larger than ${MAX_PEM_BYTES} bytes: not a certificate or key`
                : (error as Error).message;
    throw new MarqueeError('INVALID_SETTINGS', `the TLS ${what} ${file} cannot be read: ${reason}`, { cause: error });
  }
}

function checkPair(cert: Buffer, key: Buffer, certFile: string, keyFile: string): TlsPair {
  let parsed: X509Certificate;
  try {
    parsed = new X509Certificate(cert);
  } catch {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `the TLS certificate ${certFile} holds no PEM certificate (-----BEGIN CERTIFICATE-----)${
        cert.includes('PRIVATE KEY') ? ': it holds a private key; were the certificate and key swapped?' : ''
      }`,
    );
  }
  if (!key.includes('PRIVATE KEY-----')) {
    throw new MarqueeError(
      'INVALID_SETTINGS',
      `the TLS key ${keyFile} holds no PEM private key (-----BEGIN PRIVATE KEY-----)${
        key.includes('BEGIN CERTIFICATE') ? ': it holds a certificate; were the certificate and key swapped?' : ''
      }`,
    );
  }
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    const message = (error as Error).message;
    throw new MarqueeError(
      'INVALID_SETTINGS',
      /mismatch/i.test(message)
        ? `the TLS key ${keyFile} is not the key of the certificate ${certFile}`
        : `the TLS certificate ${certFile} and key ${keyFile} cannot be used: ${message}`,
      { cause: error },
    );
  }
  return {
    cert,
    key,
    info: {
      serial: parsed.serialNumber,
      validTo: new Date(parsed.validTo).toISOString(),
      names: (parsed.subjectAltName ?? '')
        .split(',')
        .map((entry) => entry.trim().replace(/^(DNS|IP Address):/, ''))
        .filter((name) => name !== ''),
    },
  };
}

/**
 * Read the files again every `checkEveryMs` and give the server a pair that changed and works;
 * `check()` does it at once (SIGHUP). A pair that does not work is reported once per content.
 */
export function watchTlsPair(
  server: HttpsServer,
  options: TlsOptions,
  first: TlsPair,
): { check(): Promise<TlsReloadEvent | undefined>; stop(): void } {
  let seen = { cert: first.cert, key: first.key };
  /** The read error last reported, so a file missing for a while is said once. */
  let seenMissing: string | undefined;
  let running: Promise<TlsReloadEvent | undefined> | undefined;
  const check = async (): Promise<TlsReloadEvent | undefined> => {
    let cert: Buffer;
    let key: Buffer;
    try {
      // A path that is not a regular file (a FIFO) is refused at once, and the next check reads again.
      [cert, key] = await Promise.all([readPem(options.certFile, 'certificate'), readPem(options.keyFile, 'key')]);
    } catch (error) {
      // Between a renewal's delete and write, or a folder being replaced: the next check sees the result.
      const event = { ok: false as const, message: `${(error as Error).message}; the certificate in use is kept` };
      if (seenMissing === event.message) return undefined;
      seenMissing = event.message;
      options.onReload?.(event);
      return event;
    }
    seenMissing = undefined;
    if (cert.equals(seen.cert) && key.equals(seen.key)) return undefined;
    seen = { cert, key };
    let event: TlsReloadEvent;
    try {
      const pair = checkPair(cert, key, options.certFile, options.keyFile);
      server.setSecureContext({ cert: pair.cert, key: pair.key });
      event = { ok: true, ...pair.info };
    } catch (error) {
      event = { ok: false, message: `${(error as Error).message}; the certificate in use is kept` };
    }
    options.onReload?.(event);
    return event;
  };
  // One check at a time: a slow disk must not stack reads.
  const once = () => {
    running ??= check().finally(() => {
      running = undefined;
    });
    return running;
  };
  const every = options.checkEveryMs ?? 5_000;
  const timer = every > 0 ? setInterval(() => void once().catch(() => {}), every).unref() : undefined;
  return {
    check: once,
    stop: () => clearInterval(timer),
  };
}
