/** Word lists the generator draws names and texts from: plain ASCII words of real-world lengths. */

export const WORDS = (
  'amber autumn border bridge canyon castle cedar chase circle city coast comet copper crown dawn desert ' +
  'distant dragon dream echo ember empire falcon field fire forest fortune frontier garden ghost glass gold ' +
  'harbor harvest haven hidden highway horizon hunter island iron journey jungle kingdom lake legacy light ' +
  'lion lost machine marble meadow midnight mirror mission moon mountain night north ocean orchid outlaw ' +
  'paper path phantom pilot planet prairie promise quiet rain raven river road rocket rose ruby saint ' +
  'secret shadow shore silver sky snow song spirit spring star stone storm summer sun tide tiger tower ' +
  'train treasure valley velvet voyage wanderer water west whisper wild willow wind winter wolf world'
).split(' ');

export const PEOPLE_FIRST = (
  'Ada Alan Alice Amara Ana Ben Carla Chen David Elena Emil Farah Grace Hana Ivan Jonas Kai Lara Leo Lina ' +
  'Marco Maya Nadia Noah Omar Paula Ravi Rosa Sami Sara Tariq Tom Uma Vera Yuki Zoe'
).split(' ');

export const PEOPLE_LAST = (
  'Abbott Berg Costa Dubois Eriksen Fischer Garcia Haddad Ito Jensen Kowalski Lopez Moreau Nakamura Novak ' +
  'Okafor Petrov Quinn Rossi Schmidt Tanaka Umar Varga Weber Xu Yilmaz Zimmermann'
).split(' ');

export const MOVIE_GENRES = [
  'Action',
  'Adventure',
  'Animation',
  'Biography',
  'Comedy',
  'Crime',
  'Documentary',
  'Drama',
  'Family',
  'Fantasy',
  'History',
  'Horror',
  'Music',
  'Mystery',
  'Romance',
  'Science Fiction',
  'Sport',
  'Thriller',
  'War',
  'Western',
];

export const CHANNEL_GROUPS = ['News', 'Sport', 'Movies', 'Kids', 'Music', 'Documentary', 'Entertainment', 'Regional'];

export const PROGRAMME_CATEGORIES = [
  'News',
  'Sports',
  'Movie',
  'Series',
  'Documentary',
  'Kids',
  'Music',
  'Talk',
  'Reality',
  'Drama',
  'Comedy',
  'Weather',
];

/** Capitalised words joined by spaces: `Silver Harbor`. */
export function title(rand, min, max) {
  const count = rand.int(min, max);
  const out = [];
  for (let i = 0; i < count; i++) {
    const w = rand.pick(WORDS);
    out.push(w[0].toUpperCase() + w.slice(1));
  }
  return out.join(' ');
}

/** Sentences of lower-case words, about `length` characters long. */
export function sentence(rand, length) {
  let text = '';
  let start = true;
  while (text.length < length) {
    const w = rand.pick(WORDS);
    text += (text ? ' ' : '') + (start ? w[0].toUpperCase() + w.slice(1) : w);
    start = rand() < 0.12;
    if (start) text += '.';
  }
  return text.endsWith('.') ? text : `${text}.`;
}

/** `Ada Costa` */
export function person(rand) {
  return `${rand.pick(PEOPLE_FIRST)} ${rand.pick(PEOPLE_LAST)}`;
}
