/** The demo's channels: real-looking line-ups, freely licensed sample streams, logos as data URIs. */

const BUCKET = 'https://commondatastorage.googleapis.com/gtv-videos-bucket/sample';

export interface DemoChannel {
  readonly id: string;
  readonly name: string;
  readonly group: string;
  readonly number: number;
  readonly colour: string;
  readonly streams: readonly string[];
  /** Programme titles with a typical length in minutes and a category. */
  readonly shows: ReadonlyArray<readonly [title: string, minutes: number, category: string, description: string]>;
}

export const DEMO_CHANNELS: readonly DemoChannel[] = [
  {
    id: 'MarqueeNews.demo',
    name: 'Marquee News 24',
    group: 'News',
    number: 1,
    colour: '#c0392b',
    streams: [`${BUCKET}/TearsOfSteel.mp4`],
    shows: [
      ['World Tonight', 60, 'News', 'The day’s stories from around the globe, with analysis from our correspondents.'],
      ['Market Watch', 30, 'Business', 'Stocks, currencies and the companies moving them.'],
      ['Weather & Traffic', 30, 'News', 'Forecasts for the week ahead & the roads to avoid.'],
      ['The Interview', 60, 'Talk', 'One guest, one hour, no soundbites.'],
    ],
  },
  {
    id: 'OpenMovies.demo',
    name: 'Open Movies',
    group: 'Movies',
    number: 2,
    colour: '#8e44ad',
    streams: [`${BUCKET}/Sintel.mp4`, `${BUCKET}/ElephantsDream.mp4`],
    shows: [
      ['Sintel', 90, 'Fantasy', 'A lonely young woman searches for the baby dragon she befriended.'],
      ['Big Buck Bunny', 60, 'Animation', 'A giant rabbit takes revenge on three bullying rodents.'],
      ['Tears of Steel', 90, 'Science Fiction', 'Warriors and scientists gather in Amsterdam to save the world.'],
      ['Elephants Dream', 60, 'Science Fiction', 'Two men explore a vast, surreal machine.'],
    ],
  },
  {
    id: 'NatureLive.demo',
    name: 'Nature Live',
    group: 'Documentary',
    number: 3,
    colour: '#27ae60',
    streams: [`${BUCKET}/ForBiggerEscapes.mp4`],
    shows: [
      ['Wild Coasts', 60, 'Nature', 'Seabirds, seals and the tides that shape them.'],
      ['Forest Nights', 30, 'Nature', 'What wakes when the sun goes down.'],
      ['The Great Migration', 90, 'Nature', 'Following a million wildebeest across the Serengeti.'],
    ],
  },
  {
    id: 'RetroToons.demo',
    name: 'Retro Toons',
    group: 'Kids',
    number: 4,
    colour: '#f39c12',
    streams: [`${BUCKET}/BigBuckBunny.mp4`],
    shows: [
      ['Caminandes', 30, 'Animation', 'A llama tries to get to the other side of the fence.'],
      ['Morning Cartoons', 60, 'Animation', 'Classic shorts for early risers.'],
      ['Spring', 30, 'Animation', 'A shepherd girl and her dog face ancient spirits.'],
    ],
  },
  {
    id: 'ScienceHour.demo',
    name: 'Science Hour',
    group: 'Documentary',
    number: 5,
    colour: '#2980b9',
    streams: [`${BUCKET}/ForBiggerJoyrides.mp4`],
    shows: [
      ['Cosmos Today', 60, 'Science', 'News from telescopes, probes and the people who build them.'],
      ['How It’s Made: Chips', 30, 'Science', 'From sand to silicon in thirty minutes.'],
      ['Ask a Physicist', 30, 'Science', 'Viewers’ questions, answered on a whiteboard.'],
    ],
  },
  {
    id: 'JazzLounge.demo',
    name: 'Jazz Lounge',
    group: 'Music',
    number: 6,
    colour: '#16a085',
    streams: [`${BUCKET}/ForBiggerMeltdowns.mp4`],
    shows: [
      ['Late Night Standards', 120, 'Music', 'Quartets and trios playing the American songbook.'],
      ['Café Sessions', 60, 'Music', 'Live from a café in Montmartre.'],
    ],
  },
];

/** A square SVG logo with the channel's initials, as a data URI (the demo needs no image host). */
export function logoFor(channel: DemoChannel): string {
  const initials = channel.name
    .split(/\s+/)
    .map((w) => w[0])
    .join('')
    .slice(0, 3)
    .replace(/[<>&"']/g, '');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" rx="40" fill="${channel.colour}"/><text x="128" y="150" fill="#fff" font-family="sans-serif" font-size="84" font-weight="700" text-anchor="middle">${initials}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
