import type { Findings } from './findings.js';
import type { Requester } from './requester.js';

/**
 * An add-on whose manifest says `behaviorHints.configurationRequired: true` is not installed from
 * this address: the client offers only "Configure", which opens `…/configure`, and installs the
 * address that page makes. So the client goes as far as the manifest and the configure page; its
 * resources answer at a configured address only (404 here is the right answer, not an error).
 * Checked as far as that, and the report says where the rest is checked.
 *
 * @example if (requiresConfiguration(raw)) await checkConfigurePage(requester, findings);
 */
export function requiresConfiguration(manifest: Record<string, unknown>): boolean {
  const hints = manifest.behaviorHints;
  return (
    typeof hints === 'object' && hints !== null && (hints as Record<string, unknown>).configurationRequired === true
  );
}

/** The configure page the client opens, and the note that the resources need a configured address. */
export async function checkConfigurePage(requester: Requester, findings: Findings): Promise<void> {
  const path = '/configure';
  const exchange = await requester.get(path);
  if (exchange.outcome === 'skipped') return;
  const type = exchange.headers?.get('content-type') ?? '';
  const failure =
    exchange.outcome !== 'response'
      ? `cannot be fetched: ${exchange.reason}`
      : exchange.status !== 200
        ? `answers HTTP ${exchange.status} instead of a page`
        : !/text\/html/i.test(type)
          ? `answers ${JSON.stringify(type.slice(0, 60) || 'no Content-Type')} instead of an HTML page`
          : undefined;
  if (failure !== undefined) {
    findings.add({
      check: 'manifest',
      severity: 'error',
      rule: 'configure.page',
      path,
      message: `the configure page ${failure}`,
      effect:
        'the client offers only "Configure" for an add-on that requires configuration, and opens this page: without it, nobody can install the add-on',
    });
  }
  findings.add({
    check: 'crawl',
    severity: 'info',
    rule: 'crawl.configuration-required',
    path: '/manifest.json',
    message:
      'behaviorHints.configurationRequired is true: the client installs this add-on only from the address its configure page makes, so its catalogs and other resources were not requested here',
    effect:
      'check a configured address to check them: the manifest URL the configure page gives (marquee check https://…/{config}/manifest.json)',
  });
}
