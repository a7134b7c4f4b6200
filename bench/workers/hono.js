/** The same catalog page served by Hono, as Hono add-ons on Workers are written. */
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { pageAt } from './films.js';

const app = new Hono();
app.use('*', cors());
app.get('/catalog/movie/films.json', (c) => c.json({ metas: pageAt(0) }));

export default app;
