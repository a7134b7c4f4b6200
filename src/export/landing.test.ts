import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../protocol/index.js';
import { landingHtml } from './landing.js';

const manifest = {
  id: 'org.test.static',
  version: '1.0.0',
  name: 'Static',
  description: 'd',
  resources: ['catalog'],
  types: ['movie'],
  catalogs: [{ type: 'movie', id: 'films', name: 'Films' }],
} as Manifest;

/** The page's own script run against a stand-in document at `href`: what it sets. */
function located(page: string, href: string): { install: string; shown: boolean; needsHttps: boolean } {
  const script = /<script nonce="[^"]+">([\s\S]*?)<\/script>/.exec(page.split('<main>')[1]!)?.[1] ?? '';
  const elements = {
    'manifest-url': { value: '' },
    install: { href: '#' },
    'install-row': { hidden: true },
    'needs-https': { hidden: true },
  } as Record<string, Record<string, unknown>>;
  const document = { getElementById: (id: string) => elements[id] };
  vm.runInNewContext(script.replaceAll('&#39;', "'"), { document, location: new URL(href), URL });
  return {
    install: String(elements.install!.href),
    shown: elements['install-row']!.hidden === false,
    needsHttps: elements['needs-https']!.hidden === false,
  };
}

describe('the static export landing page', () => {
  it('offers the stremio:// link only for an https address', () => {
    const https = landingHtml(manifest, 'https://cdn.example.org/addon').html;
    expect(https).toContain('href="stremio://cdn.example.org/addon/manifest.json"');
    expect(https).toMatch(/id="needs-https" hidden/);
    const plain = landingHtml(manifest, 'http://192.168.1.5:8000').html;
    expect(plain).not.toContain('stremio://');
    expect(plain).toMatch(/<p class="hint" id="needs-https">Served over plain HTTP/);
  });

  it('without a public URL, decides from where it is served', () => {
    const page = landingHtml(manifest).html;
    expect(located(page, 'https://cdn.example.org/addon/index.html')).toEqual({
      install: 'stremio://cdn.example.org/addon/manifest.json',
      shown: true,
      needsHttps: false,
    });
    expect(located(page, 'http://192.168.1.5:8000/')).toEqual({ install: '#', shown: false, needsHttps: true });
  });
});
