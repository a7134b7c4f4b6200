/**
 * An inverted index of names by what a name can be aligned on: its tokens, their loose
 * spellings, and the joins of two or three adjacent tokens (so `RecordTV` finds `Record TV` and
 * the other way round). A key's names are a number while it has one (most keys), a list after.
 */
import { loose, markAt, type NameForm, weightAt } from './form.js';

type List = number | number[];

export class Postings {
  readonly #tokens = new Map<string, List>();
  readonly #loose = new Map<string, List>();
  readonly #joins = new Map<string, List>();

  /** Indexes name number `n`. */
  add(n: number, form: NameForm): void {
    const t = form.tokens;
    for (let i = 0; i < t.length; i++) {
      push(this.#tokens, t[i]!, n);
      const l = loose(t[i]!);
      if (l !== '') push(this.#loose, l, n);
      if (i + 1 < t.length) {
        push(this.#joins, t[i]! + t[i + 1]!, n);
        if (i + 2 < t.length) push(this.#joins, t[i]! + t[i + 1]! + t[i + 2]!, n);
      }
    }
  }

  /** How many names a probe of token `i` of `form` reaches at most (to probe the rarest first). */
  reach(form: NameForm, i: number): number {
    const t = form.tokens[i]!;
    const l = loose(t);
    return size(this.#tokens.get(t)) + size(this.#joins.get(t)) + (l === '' ? 0 : size(this.#loose.get(l)));
  }

  /**
   * Calls `visit` with every name that could align token `i` of `form`: the same token, its loose
   * spelling, a join equal to it, or a token equal to its join with a neighbour.
   */
  probe(form: NameForm, i: number, visit: (n: number) => void): void {
    const t = form.tokens;
    const token = t[i]!;
    each(this.#tokens.get(token), visit);
    each(this.#joins.get(token), visit);
    const l = loose(token);
    if (l !== '') each(this.#loose.get(l), visit);
    // The joins this token is part of, against single tokens of the other names.
    const before = i > 0 ? t[i - 1]! : undefined;
    const after = i + 1 < t.length ? t[i + 1]! : undefined;
    if (before !== undefined) {
      each(this.#tokens.get(before + token), visit);
      if (i > 1) each(this.#tokens.get(t[i - 2]! + before + token), visit);
      if (after !== undefined) each(this.#tokens.get(before + token + after), visit);
    }
    if (after !== undefined) {
      each(this.#tokens.get(token + after), visit);
      if (i + 2 < t.length) each(this.#tokens.get(token + after + t[i + 2]!), visit);
    }
  }
}

function push(map: Map<string, List>, key: string, n: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, n);
  else if (typeof list === 'number') {
    if (list !== n) map.set(key, [list, n]);
  } else if (list[list.length - 1] !== n) list.push(n);
}

function size(list: List | undefined): number {
  return list === undefined ? 0 : typeof list === 'number' ? 1 : list.length;
}

function each(list: List | undefined, visit: (n: number) => void): void {
  if (list === undefined) return;
  if (typeof list === 'number') visit(list);
  else for (let k = 0; k < list.length; k++) visit(list[k]!);
}

/**
 * The tokens of `form` to probe so that every name scoring at least the bound shares one of
 * them: the rarest first, until the weight left unprobed could not reach `share` of the name's
 * weight on its own. `extra(i)` is what token `i` weighs when unaligned (its least, for a bound
 * that holds whatever the guide says). Numbers are probed only when `marks` (a match must have
 * the same numbers); otherwise they count as unaligned from the start.
 */
export function probeSet(
  form: NameForm,
  share: number,
  reach: (i: number) => number,
  extra: (i: number) => number,
  marks: boolean,
): number[] {
  const order: number[] = [];
  let rest = 0;
  let probed = 0;
  for (let i = 0; i < form.tokens.length; i++) {
    if (!marks && markAt(form, i)) probed += weightAt(form, i);
    else {
      order.push(i);
      rest += weightAt(form, i);
    }
  }
  const reached = order.map((i) => reach(i));
  const byReach = order.map((_, k) => k).sort((a, b) => reached[a]! - reached[b]!);
  const probes: number[] = [];
  for (const k of byReach) {
    // Unaligned, the probed tokens weigh at least `probed`; aligned, the others at most `rest`.
    if (probed > 0 && probed / (rest + probed) > 1 - share) break;
    const i = order[k]!;
    probes.push(i);
    probed += extra(i);
    rest -= weightAt(form, i);
  }
  return probes;
}
