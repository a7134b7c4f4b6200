import { describe, expect, it } from 'vitest';
import { readCallSign, sharedCallSign } from './call-sign.js';
import { formOf } from './form.js';

const call = (name: string) => readCallSign(name).call?.id;

describe('readCallSign: a station by its call sign, where a name writes one as such', () => {
  it.each([
    // Real names of the matching corpus, playlists' and guides'.
    ['FOX 32 Chicago IL (WFLD) (720p)', 'wfld'],
    ['FOX (WFLD-DT1) Chicago, IL', 'wfld'],
    ['KMSP-DT1 (1080p)', 'kmsp'],
    ['KUONDT', 'kuon'],
    ['Fox 25 Boston (WFXT-TV) (1080p) [Geo-blocked]', 'wfxt'],
    ['WPIX-HD (576p)', 'wpix'],
    ['KNTV 11.1', 'kntv'],
    ['WGN-DT1 (720p)', 'wgn'],
    // Another channel of the station, or another station of the same letters.
    ['KQED-DT2 (1080p)', 'kqed/2'],
    ['PBS Plus (KQED2) San Jose, CA', 'kqed/2'],
    ['KCKS-LD 25.3 (720p)', 'kcks-ld/3'],
    ['FOX (KMPH-CD) Fresno, CA', 'kmph-cd'],
    ['WHPR TV Detroit Live (WHPS-CD2) Highland Park, MI', 'whps-cd/2'],
    // In brackets and as a suffix before glued: the guide says WACP's main channel here.
    ['WACP4 (WACP-DT1) Atlantic City, NJ', 'wacp'],
  ])('%s → %s', (name, id) => {
    expect(call(name)).toBe(id);
  });

  it('reads no call sign in words shaped like one', () => {
    for (const name of [
      'WBTV News (720p)',
      'Kids TV',
      'Nick (Kids)',
      'CCTV4',
      'CINE (1080p)',
      'Wild Earth',
      'KBS World',
    ]) {
      expect(call(name)).toBeUndefined();
    }
  });

  it('keeps the letters among the tokens, and a subchannel past the first as a number', () => {
    expect(formOf('KMSP-DT1 (1080p)').key).toBe(formOf('KMSP HDTV').key);
    expect(formOf('KQED-DT2').tokens).toEqual(['kqed', '2']);
    expect(formOf('FOX 32 Chicago IL (WFLD)').tokens).toEqual(['fox', '32', 'chicago', 'il', 'wfld']);
  });

  it("gives a guide channel's names the call sign one of them writes", () => {
    const [bare, written] = sharedCallSign(
      ['WFUT True Crime Network HDTV', 'True Crime Network (WFUT-DT2) New York, NY'].map((n) => formOf(n)),
    );
    expect(bare!.call).toEqual(written!.call);
    // Two call signs in one channel: none is shared.
    const [a] = sharedCallSign(['WNYW', '(WNYW-DT2)', '(WNYW-DT3)'].map((n) => formOf(n)));
    expect(a!.call).toBeUndefined();
  });
});
