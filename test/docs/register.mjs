// `node --import ./test/docs/register.mjs file.mjs`: the hooks of loader.mjs for one process.
import { register } from 'node:module';

register('./loader.mjs', import.meta.url);
