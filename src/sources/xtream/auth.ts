/**
 * The account check every read starts with: `player_api.php` without an action answers
 * `{ user_info, server_info }`. A wrong password (`auth: 0`), a disabled or banned account
 * (`status` other than Active) and an expired one (`exp_date` in the past) are clear errors naming
 * the account's host, so the import keeps what the account served before.
 */
import { MarqueeError } from '../../errors.js';
import type { XtreamClient } from './client.js';
import { list, num, obj, str } from './values.js';

export interface XtreamServer {
  /** The panel's time zone (`server_info.timezone`), in which short-guide times are written. */
  readonly timezone?: string;
  /** Output formats live streams may be asked in, in the order to offer them (`m3u8`, `ts`). */
  readonly liveFormats: readonly ('m3u8' | 'ts')[];
  /** When the account expires (epoch ms), if it does. */
  readonly expiresAt?: number;
}

/**
 * Checks the account and reads what the panel says about itself.
 * @example const server = await checkAccount(client) // throws SOURCE_INVALID 'xtream us…@tv.example: wrong username or password'
 */
export async function checkAccount(client: XtreamClient, now = Date.now()): Promise<XtreamServer> {
  const label = client.account.label;
  const answer = obj(await client.call(undefined));
  const user = obj(answer?.user_info);
  if (answer === undefined || (user === undefined && answer.user_info === undefined)) {
    throw new MarqueeError(
      'SOURCE_INVALID',
      `${label}: player_api.php did not answer an account (no user_info): not an Xtream Codes panel?`,
    );
  }
  const auth = num(user?.auth);
  if (user === undefined || auth === 0 || (auth === undefined && user.auth !== true)) {
    throw new MarqueeError('SOURCE_INVALID', `${label}: the panel refused the username or password (auth 0)`);
  }
  const status = str(user.status);
  if (status !== undefined && status.toLowerCase() !== 'active') {
    throw new MarqueeError('SOURCE_INVALID', `${label}: the account is ${status.toLowerCase()}, not active`);
  }
  const expires = num(user.exp_date);
  const expiresAt = expires !== undefined && expires > 0 ? expires * 1000 : undefined;
  if (expiresAt !== undefined && expiresAt <= now) {
    throw new MarqueeError(
      'SOURCE_INVALID',
      `${label}: the account expired on ${new Date(expiresAt).toISOString().slice(0, 10)}`,
    );
  }
  const server = obj(answer.server_info);
  const allowed = list(user.allowed_output_formats).map((f) => str(f)?.toLowerCase());
  const liveFormats = (['m3u8', 'ts'] as const).filter((f) => allowed.includes(f));
  const timezone = str(server?.timezone, 64);
  return {
    liveFormats: liveFormats.length > 0 ? liveFormats : ['ts'],
    ...(timezone !== undefined && validZone(timezone) ? { timezone } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
  };
}

function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
