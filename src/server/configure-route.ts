import { coerceConfig } from '../addon/config.js';
import type { AnyAddon } from '../addon/create-addon.js';
import { MarqueeError } from '../errors.js';
import { configurePage, fieldName } from './configure.js';
import { frontPageData } from './front.js';
import { pageHeaders, pageNonce } from './page.js';
import { htmlResponse, notFoundResponse } from './respond.js';
import type { CoreRequest, CoreResponse } from './types.js';

/** A configure form is a few fields; anything bigger is not one of ours. */
const MAX_FORM_BYTES = 64 * 1024;

/**
 * GET /configure (fresh), GET /{config}/configure (reconfigure, pre-filled), POST /configure
 * (check the values, then show the install link of the encoded configuration). `httpsGuideUrl`:
 * the served HTTPS guide, which the install section links over plain HTTP.
 */
export async function handleConfigure(
  addon: AnyAddon,
  request: CoreRequest,
  segment: string | undefined,
  baseUrl: string,
  method: 'GET' | 'POST',
  httpsGuideUrl?: string,
  notes: readonly string[] = [],
): Promise<CoreResponse> {
  const manifest = addon.manifest;
  const fields = addon.configFields;
  if (fields.length === 0) return notFoundResponse();
  const nonce = pageNonce();
  const headers = pageHeaders(nonce);
  const guide = { ...(httpsGuideUrl !== undefined ? { httpsGuideUrl } : {}), ...(notes.length > 0 ? { notes } : {}) };

  let previous: Record<string, unknown> | undefined;
  let previousSegment: string | undefined;
  if (segment !== undefined) {
    try {
      previousSegment = decodeURIComponent(segment);
    } catch {
      return notFoundResponse();
    }
    previous = await addon.configCodec.decode(previousSegment);
    if (!previous) return notFoundResponse();
  }

  if (method === 'GET') {
    // A fresh page shows the declared defaults typed, so a checkbox whose default is "checked" starts checked.
    const shown = coerceConfig(fields, previous ?? {}).values;
    for (const f of fields) if (f.type === 'password') delete shown[f.key];
    const page = configurePage({
      manifest,
      baseUrl,
      nonce,
      values: shown,
      ...(previousSegment !== undefined
        ? { previous: previousSegment, storedPasswords: storedPasswords(fields, previous) }
        : { front: await frontPageData(addon) }),
      ...guide,
    });
    return htmlResponse(200, page, headers);
  }

  if (!request.readBody) throw new MarqueeError('BAD_REQUEST', 'this runtime cannot read a request body');
  const form = new URLSearchParams(new TextDecoder().decode(await request.readBody(MAX_FORM_BYTES)));
  const sentPrevious = form.get('previous') ?? undefined;
  const old = sentPrevious !== undefined ? await addon.configCodec.decode(sentPrevious) : undefined;
  const raw: Record<string, unknown> = {};
  for (const field of fields) {
    const value = form.get(fieldName(field.key));
    if (field.type === 'checkbox') raw[field.key] = value !== null;
    else if (field.type === 'password' && (value === null || value === '') && old?.[field.key] !== undefined) {
      raw[field.key] = old[field.key];
    } else if (value !== null) raw[field.key] = value;
  }
  const { values, problems } = coerceConfig(fields, raw);
  const shown = { ...values };
  for (const f of fields) if (f.type === 'password') delete shown[f.key];
  if (problems.length > 0) {
    const page = configurePage({
      manifest,
      baseUrl,
      nonce,
      values: { ...raw, ...shown },
      problems,
      ...(old && sentPrevious !== undefined
        ? { previous: sentPrevious, storedPasswords: storedPasswords(fields, old) }
        : {}),
      ...guide,
    });
    return htmlResponse(400, page, headers);
  }
  const encoded = await addon.configCodec.encode(values);
  const manifestUrl = `${baseUrl}/${encodeURIComponent(encoded)}/manifest.json`;
  const page = configurePage({
    manifest,
    baseUrl,
    nonce,
    values: shown,
    previous: encoded,
    storedPasswords: storedPasswords(fields, values),
    manifestUrl,
    ...guide,
  });
  return htmlResponse(200, page, headers);
}

/** The password fields `config` holds a value for (the page says "unchanged" for those only). */
function storedPasswords(
  fields: readonly { key: string; type?: string }[],
  config: Readonly<Record<string, unknown>> | undefined,
): string[] {
  return fields.filter((f) => f.type === 'password' && (config?.[f.key] ?? '') !== '').map((f) => f.key);
}
