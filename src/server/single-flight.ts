/**
 * Single flight (core.ts): a request of a path whose answer is being computed, for the same data
 * version, waits for that answer instead of computing it again, and is answered from it.
 */
import type { CachedResponse } from './response-cache.js';

/** How a flight ended: with an answer (and the path it is cached under, if it is), a 404, or a failure. */
export type FlightOutcome = { readonly entry: CachedResponse; readonly keptAs?: string } | 'not-found' | 'failed';

/** An answer being computed; `done` resolves (never rejects) once it is answered or has failed. */
export interface Flight {
  followers: number;
  readonly done: Promise<FlightOutcome>;
  readonly land: (outcome: FlightOutcome) => void;
}

/**
 * A flight no request follows yet; its leader calls `land` once, and followers await `done`.
 * @example const flight = newFlight(); flights.set(key, flight); … flight.land({ entry })
 */
export function newFlight(): Flight {
  let land: (outcome: FlightOutcome) => void = () => {};
  const done = new Promise<FlightOutcome>((resolve) => {
    land = resolve;
  });
  return { followers: 0, done, land };
}
