/**
 * "1 channel", "2,008 channels": counts said in words, for every line the CLI prints.
 *
 * @example count(1, 'channel') // '1 channel'
 * @example count(12, 'series', 'series') // '12 series'
 */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? singular : plural}`;
}
