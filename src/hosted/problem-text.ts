/**
 * What a hosted user is told when a source of theirs fails: the cause in plain words and what to
 * do about it (issue 46). The import's own wording is an operator's (`failed, never imported`,
 * `it never imported well, so it contributes nothing`, `kept since …`): that history is for
 * `marquee status`, not for someone who just pasted an address into a form.
 */

/** The first HTTP status a reason names. */
const statusOf = (reason: string) => Number(/\bHTTP (\d{3})\b/.exec(reason)?.[1] ?? 0);

/**
 * The cause of `reason` (an import's reason for a bad source: `failed: HTTP 404 Not Found`, `is an
 * HTML page, not a playlist`, `gives nothing: …`) and what to do, in a sentence for the user.
 */
function causeAndFix(kind: string, reason: string): string {
  const what = kind === 'guide' ? 'guide' : 'playlist';
  const text = reason.replace(/^failed: /, '').trim();
  const status = statusOf(text);
  if (/private or local address/.test(text)) {
    return `${text.replace(/ \(named by [^)]*\)/, '')}: give an address on the internet`;
  }
  if (status === 401 || status === 403 || status === 407) {
    return `was refused by its server (HTTP ${status}): check the address, and that your subscription is active`;
  }
  if (status === 404 || status === 410) {
    return `was not found on its server (HTTP ${status}): check the address (copy it again from your provider)`;
  }
  if (status === 429 || status >= 500) {
    return `could not be read: its server is busy or failing (HTTP ${status}); try again in a few minutes`;
  }
  if (/\bENOTFOUND\b/.test(text)) {
    return 'names a server that does not exist (no such host): check the address for a typo';
  }
  if (
    /\b(EAI_AGAIN|ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT)\b|no connection within|timed? ?out/i.test(
      text,
    )
  ) {
    return "could not be reached: its server did not answer. Check the address, or try again later if it is your provider's server";
  }
  if (/is an HTML page/.test(text)) {
    return `is a web page (HTML), not a ${what}: give the ${what}'s own address${
      what === 'playlist'
        ? ' (the M3U link from your provider, often ending in .m3u or with type=m3u_plus)'
        : ' (an XMLTV file, often ending in .xml or .xml.gz)'
    }`;
  }
  if (/more than .*(limit|bytes|MB)|larger than/i.test(text)) {
    return `is larger than this server accepts (${text}): use a smaller ${what}, or ask the server's operator`;
  }
  if (/NUL characters|UTF-16|encoding/i.test(text)) return `${text}`;
  if (/holds no #EXTINF entry|is empty|is not a playlist/.test(text)) {
    return 'holds no channel: it is not an IPTV playlist (M3U). Check that the address gives your playlist';
  }
  if (/holds no channel to serve/.test(text))
    return 'leaves no channel to show: check that it is the playlist you meant';
  if (/out of date|all ended before/.test(text)) {
    return `${text.replace(/^gives nothing: /, 'gives no programmes: ')}. Use a guide that is kept up to date (your provider's current EPG address)`;
  }
  if (/matches a playlist channel/.test(text)) {
    return `${text.replace(/^gives nothing: /, 'gives no programmes: ')}. Use the guide that goes with your playlist`;
  }
  if (/is not XMLTV|not valid XML|holds no programme/.test(text)) {
    return `${text}: check that the address gives an XMLTV guide`;
  }
  return `could not be used (${text}): check the address, or try again later`;
}

/**
 * The message for a hosted user about their source `label` of `kind` (`playlist`, `guide`,
 * `xtream`) that failed for `reason`; the form shows it after the field's name.
 * @example userProblem('playlist', 'https://tv.example/list.m3u', 'failed: HTTP 404 Not Found')
 * // 'https://tv.example/list.m3u was not found on its server (HTTP 404): check the address (copy it again from your provider)'
 */
export function userProblem(kind: string, label: string, reason: string | undefined): string {
  return `${label} ${causeAndFix(kind, reason ?? 'failed')}`;
}
