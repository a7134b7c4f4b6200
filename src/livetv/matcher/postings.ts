/**
 * An inverted index of names by what a name can be aligned on: its tokens, their loose
 * spellings, and the joins of two or three adjacent tokens (so `RecordTV` finds `Record TV` and
 * the other way round). Lists hold name numbers in the order names were added.
 */
import type { NameForm } from './form.js';

export class Postings {
  readonly #tokens = new Map<string, number[]>();
  readonly #loose = new Map<string, number[]>();
  readonly #joins = new Map<string, number[]>();

  /** Indexes name number `n`. */
  add(n: number, form: NameForm): void {
    const t = form.tokens;
    for (let i = 0; i < t.length; i++) {
      push(this.#tokens, t[i]!, n);
      if (form.loose[i] !== '') push(this.#loose, form.loose[i]!, n);
      if (i + 1 < t.length) {
        push(this.#joins, t[i]! + t[i + 1]!, n);
        if (i + 2 < t.length) push(this.#joins, t[i]! + t[i + 1]! + t[i + 2]!, n);
      }
    }
  }

  /** How many names a probe of token `i` of `form` reaches at most (to probe the rarest first). */
  reach(form: NameForm, i: number): number {
    const t = form.tokens[i]!;
    let n = (this.#tokens.get(t)?.length ?? 0) + (this.#joins.get(t)?.length ?? 0);
    if (form.loose[i] !== '') n += this.#loose.get(form.loose[i]!)?.length ?? 0;
    return n;
  }

  /**
   * Calls `visit` with every name that could align token `i` of `form`: the same token, its loose
   * spelling, a join equal to it, or a token equal to its join with a neighbour.
   */
  probe(form: NameForm, i: number, visit: (n: number) => void): void {
    const t = form.tokens;
    const token = t[i]!;
    visitAll(this.#tokens.get(token), visit);
    visitAll(this.#joins.get(token), visit);
    if (form.loose[i] !== '') visitAll(this.#loose.get(form.loose[i]!), visit);
    // The joins this token is part of, against single tokens of the other names.
    const before = i > 0 ? t[i - 1]! : undefined;
    const after = i + 1 < t.length ? t[i + 1]! : undefined;
    if (before !== undefined) {
      visitAll(this.#tokens.get(before + token), visit);
      if (i > 1) visitAll(this.#tokens.get(t[i - 2]! + before + token), visit);
      if (after !== undefined) visitAll(this.#tokens.get(before + token + after), visit);
    }
    if (after !== undefined) {
      visitAll(this.#tokens.get(token + after), visit);
      if (i + 2 < t.length) visitAll(this.#tokens.get(token + after + t[i + 2]!), visit);
    }
  }
}

function visitAll(list: readonly number[] | undefined, visit: (n: number) => void): void {
  if (list === undefined) return;
  for (let k = 0; k < list.length; k++) visit(list[k]!);
}

function push(map: Map<string, number[]>, key: string, n: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [n]);
  else if (list[list.length - 1] !== n) list.push(n);
}

/**
 * The tokens of `form` to probe so that every name scoring at least the bound shares one of
 * them: the rarest first, until the weight left unprobed could not reach `share` of the name's
 * weight on its own. `extra(i)` is what token `i` weighs when unaligned (its least, for a bound
 * that holds whatever the guide says). Numbers are probed only when `marks` (a match must have
 * the same numbers); tokens of weight 0 never.
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
  // Numbers that cannot align (a match without them) are unaligned weight from the start.
  let probed = 0;
  for (let i = 0; i < form.tokens.length; i++) {
    if (!marks && isNumber(form.tokens[i]!)) probed += form.weights[i]!;
    else {
      order.push(i);
      rest += form.weights[i]!;
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
    rest -= form.weights[i]!;
  }
  return probes;
}

function isNumber(token: string): boolean {
  return /^\p{N}+$/u.test(token) || token === '+';
}
