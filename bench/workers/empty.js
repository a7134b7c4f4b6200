/** The floor: a Worker answering a fixed tiny JSON body, what the runtime and the request cost alone. */
export default {
  fetch() {
    return new Response('{"metas":[]}', { headers: { 'content-type': 'application/json' } });
  },
};
