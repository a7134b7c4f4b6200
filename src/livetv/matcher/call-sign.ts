/**
 * North American stations by their call sign. A US or Canadian station is named by its call sign
 * (`WFLD`, `KQED`, `CITY`) as much as by its network and city, and playlists and guides write the
 * rest their own way: `FOX 32 Chicago IL (WFLD)` is `FOX (WFLD) Chicago, IL HD`, `KMSP-DT1` is
 * `KMSP HDTV`, `KNTV 11.1` is `NBC (KNTV) San Francisco, CA`. The call sign says which station it
 * is; its digital subchannel (`-DT2`, `KQED2`, `25.3`) which of the station's channels, and a
 * low-power suffix (`-LD`, `-CD`) another station of the same letters.
 *
 * A word is read as a call sign only where its shape says so: in brackets on its own (`(WFLD)`),
 * with a suffix (`-DT1`, `-TV`, `-HD`, `-LD`, `DT` glued: `KUONDT`), with a subchannel glued
 * (`KQED2`) or followed by a virtual channel (`KNTV 11.1`). A bare word (`WBTV News`) is not read
 * as one, but may meet one on the other side (score.ts).
 */

/** A station's call sign as read: its letters, a low-power class, the subchannel (1 for the main one). */
export interface CallSign {
  /** The call sign's letters, lower case, as they stay among the name's tokens (`wfld`). */
  readonly letters: string;
  /** `wfld`, `kmph-cd`, `kqed/2`: two names with the same id name the same channel of one station. */
  readonly id: string;
}

/**
 * A call sign with what may follow it: a suffix and a subchannel (`-dt2`, `dt`, `-tv`, `-cd2`),
 * a glued subchannel (`kqed2`), a virtual channel (`11.1`). Four letters starting with K or W
 * (three with a `-DT`/`-TV` suffix: `WGN-DT1`), or C and three letters for Canada.
 */
const CALL =
  /(?<![\p{L}\p{N}])([kwc][a-z]{3}|[kw][a-z]{2}(?=-(?:dt|tv)))(?:(?:-(?:dt|tv|hd)|dt)(\d{0,2})|-(ld|cd|lp|ca)(\d{0,2})|(\d{1,2}))?(?:\s+(\d{1,3})\.(\d{1,2}))?(?![\p{L}\p{N}])/giu;

/** What a call sign read as one needs: a capital K, W or C, and after its letters a suffix, digits or `)`. */
const MAYBE = /[KWCkwc][a-zA-Z]{2,3}(?:[-\d)]|dt|DT|\s+\d)/;

/**
 * Reads the first call sign `text` (a name, in its own case) writes as one, and the text with it
 * written plainly: its letters, a low-power class as a word, a subchannel past the first as a
 * number; its suffix, its first subchannel and a virtual channel dropped (`KMSP-DT1` → `kmsp`,
 * `(WFLD)` → `wfld`, `KQED-DT2` → `kqed 2`, `KNTV 11.1` → `kntv`).
 * @example readCallSign('FOX 32 Chicago IL (WFLD)').call // { letters: 'wfld', id: 'wfld' }
 */
export function readCallSign(text: string): { text: string; call?: CallSign } {
  // Most names write no call sign: one quick look for what each shape needs after the letters.
  if (!MAYBE.test(text)) return { text };
  // Of several, the one in brackets, then one with a suffix (`WACP4 (WACP-DT1)` is WACP's main channel).
  let best: { rank: number; from: number; to: number; plain: string; call: CallSign } | undefined;
  for (const m of text.matchAll(CALL)) {
    const [all, written, dtSub, low, lowSub, glued, , virtualSub] = m;
    const start = m.index;
    const end = start + all.length;
    const upper = written === written!.toUpperCase();
    // On its own in brackets, in capitals: `(WFLD)`, not `(Kids)`.
    const bracketed = upper && text[start - 1] === '(' && text[end] === ')';
    const suffixed = dtSub !== undefined || low !== undefined;
    if (!bracketed && !suffixed && glued === undefined && virtualSub === undefined) continue;
    const letters = written!.toLowerCase();
    // `C` and three letters is a word as often as a call sign (`CINE`, `CCTV4`): in capitals, in
    // brackets or with a `-DT`/`-TV`/low-power suffix only.
    if (letters.startsWith('c') && !(upper && (bracketed || suffixed))) continue;
    const rank = bracketed ? 0 : suffixed ? 1 : 2;
    if (best !== undefined && best.rank <= rank) continue;
    const sub = Number(dtSub || lowSub || glued || virtualSub || 1) || 1;
    const lowClass = low?.toLowerCase();
    const station = lowClass === undefined ? letters : `${letters}-${lowClass}`;
    best = {
      rank,
      from: bracketed ? start - 1 : start,
      to: bracketed ? end + 1 : end,
      plain: ` ${letters}${lowClass === undefined ? '' : ` ${lowClass}`}${sub > 1 ? ` ${sub}` : ''} `,
      call: { letters, id: sub > 1 ? `${station}/${sub}` : station },
    };
  }
  if (best === undefined) return { text };
  return { text: text.slice(0, best.from) + best.plain + text.slice(best.to), call: best.call };
}

/**
 * Can `tokens` (a name without a call sign of its own) name station `call`'s main channel? Only
 * by the call sign's letters as a word of their own (`WBTV News` for `CBS (WBTV) Charlotte`).
 */
export function namesStation(tokens: readonly string[], call: CallSign): boolean {
  return call.id === call.letters && tokens.includes(call.letters);
}

/**
 * The forms of one guide channel's names, those that write its call sign's letters without it as
 * one (`WFUT True Crime Network HDTV` beside `True Crime Network (WFUT-DT2)`) given the call sign
 * the others write, when they write one only.
 */
export function sharedCallSign<F extends { readonly tokens: readonly string[]; readonly call?: CallSign }>(
  forms: F[],
): F[] {
  let call: CallSign | undefined;
  for (const f of forms) {
    if (f.call === undefined) continue;
    if (call !== undefined && call.id !== f.call.id) return forms;
    call = f.call;
  }
  if (call === undefined) return forms;
  const shared = call;
  return forms.map((f) => (f.call === undefined && f.tokens.includes(shared.letters) ? { ...f, call: shared } : f));
}

/**
 * The tokens of a name that may name a station, to look it up by: its call sign's letters, or
 * without one each word that is the letters of a call sign the other side writes (`WBTV News`;
 * `stations` holds those letters). A match by call sign need not share anything else, so no
 * bound on the rest of the name finds it.
 */
export function stationTokens(
  form: { readonly tokens: readonly string[]; readonly call?: CallSign },
  stations: ReadonlySet<string>,
): number[] {
  const out: number[] = [];
  form.tokens.forEach((t, i) => {
    if (form.call !== undefined ? t === form.call.letters : stations.has(t)) out.push(i);
  });
  return out;
}
