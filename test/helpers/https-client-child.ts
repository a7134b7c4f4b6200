/**
 * The real Stremio client in a process of its own, for a test that needs Node's fetch to trust a
 * test CA: NODE_EXTRA_CA_CERTS is read only when a process starts. Installs the add-on at the
 * transport URL given, opens one of its catalogs, and prints what the client holds as JSON.
 * Run as `node --import ./test/docs/register.mjs test/helpers/https-client-child.ts URL TYPE ID`.
 */
import { createStremioClient } from './stremio-client.js';

const [transportUrl, type, id] = process.argv.slice(2);
if (transportUrl === undefined || type === undefined || id === undefined) {
  process.stderr.write('usage: https-client-child.ts TRANSPORT_URL TYPE CATALOG_ID\n');
  process.exit(2);
}
const client = await createStremioClient({ timeoutMs: 20_000 });
try {
  const details = await client.loadAddonDetails(transportUrl);
  if (details.descriptor === null) {
    process.stdout.write(JSON.stringify({ refused: details.error, requests: client.requests().map((r) => r.error) }));
  } else {
    const installed = await client.installAddon(transportUrl);
    const page = await client.loadCatalog({ transportUrl, type, id });
    process.stdout.write(
      JSON.stringify({
        installed: { transportUrl: installed.transportUrl, name: installed.manifest.name },
        items: page.items.map((item) => ({ id: item.id, name: item.name })),
        error: page.error,
        paths: client.requestPaths(transportUrl),
      }),
    );
  }
} finally {
  client.close();
}
