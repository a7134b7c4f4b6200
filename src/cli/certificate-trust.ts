/**
 * Would a TV or a phone trust the certificate `serve --tls-cert` serves? Only one that chains to a
 * public authority (the roots Node ships, Mozilla's list, which the devices' own lists are close
 * to). A self-signed certificate, or one from a CA of your own, works in a browser told to accept
 * it, never in Stremio on a TV or phone: said at start, with what to do (issue 46).
 */
import { X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

let roots: X509Certificate[] | undefined;
/** The public authorities' roots, read once (about 150 certificates). */
function publicRoots(): X509Certificate[] {
  roots ??= rootCertificates.map((pem) => new X509Certificate(pem));
  return roots;
}

const issued = (child: X509Certificate, parent: X509Certificate) =>
  child.checkIssued(parent) && child.verify(parent.publicKey);

/** A distinguished name's common name, else the whole name (`CN=My CA` → `My CA`). */
function nameOf(dn: string): string {
  return /(?:^|\n)CN=([^\n]+)/.exec(dn)?.[1] ?? dn.replace(/\n/g, ', ');
}

/**
 * Why devices will not trust the certificate chain in `pem` (the `--tls-cert` file: the
 * certificate, then its chain), or undefined when it chains to a public authority.
 * @example untrustedReason(readFileSync('self-signed.pem')) // 'it is self-signed'
 */
export function untrustedReason(pem: string | Buffer): string | undefined {
  const chain = (String(pem).match(PEM) ?? []).flatMap((text) => {
    try {
      return [new X509Certificate(text)];
    } catch {
      return [];
    }
  });
  const leaf = chain[0];
  if (leaf === undefined) return undefined;
  let current = leaf;
  // A chain longer than its file is a loop: stop there.
  for (let step = 0; step <= chain.length; step++) {
    if (publicRoots().some((root) => root.fingerprint256 === current.fingerprint256 || issued(current, root)))
      return undefined;
    if (issued(current, current)) {
      return current === leaf ? 'it is self-signed' : `it is issued by "${nameOf(current.subject)}", a CA of your own`;
    }
    const parent = chain.find((c) => c !== current && issued(current, c));
    if (parent === undefined) {
      return `its issuer "${nameOf(current.issuer)}" is not a public authority (or the file lacks the intermediate certificates: give the full chain, such as fullchain.pem)`;
    }
    current = parent;
  }
  return undefined;
}
