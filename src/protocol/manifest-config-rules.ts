import { arrayOf, type Collector, isRecord, type Json, quote } from './report.js';

/**
 * Config rules: the fields of the generated /configure page and the behaviour hints that send
 * users there. `required` applies only to text-like and number settings (spec, Config object),
 * so on a checkbox or select it does nothing: a warning, not an error.
 */

const NOT_REQUIRABLE: ReadonlySet<string> = new Set(['checkbox', 'select']);

/**
 * Check `config` and the configure hints.
 *
 * @example checkConfig(manifest, out, false)
 */
export function checkConfig(m: Json, out: Collector, hasConfigurePage: boolean): void {
  const fields = arrayOf(m.config);
  const keys = new Map<string, number>();
  fields.forEach((field, i) => {
    if (!isRecord(field)) return;
    const base = `$.config[${i}]`;
    if (typeof field.key === 'string') {
      const first = keys.get(field.key);
      if (first === undefined) keys.set(field.key, i);
      else {
        out.error(
          `${base}.key`,
          `repeats the key ${quote(field.key)} of $.config[${first}]: each setting needs its own key`,
          'one value would overwrite the other in the user configuration',
        );
      }
    }
    checkField(field, base, out);
  });

  const hints = isRecord(m.behaviorHints) ? m.behaviorHints : {};
  const configurable = hints.configurable === true;
  const hasFields = fields.length > 0;
  if (configurable && !hasFields && !hasConfigurePage) {
    out.warning(
      '$.behaviorHints.configurable',
      'is true but there are no config fields and no custom configure page: add config fields or remove configurable',
      "the client's Configure button opens a page that does not exist",
    );
  }
  if (hints.configurationRequired === true && !hasFields && !hasConfigurePage) {
    out.warning(
      '$.behaviorHints.configurationRequired',
      'is true but there is nothing to configure: add config fields or a configure page, or remove it',
      'the client sends users to a configure page before installing and they cannot finish',
    );
  }
  if (hasFields && !configurable) {
    out.warning(
      '$.behaviorHints.configurable',
      'config fields are declared but behaviorHints.configurable is not true: set it so users can reach /configure',
      'the client shows no Configure button',
    );
  }
}

function checkField(field: Json, base: string, out: Collector): void {
  const type = typeof field.type === 'string' ? field.type : undefined;
  const options = Array.isArray(field.options) ? field.options : undefined;
  const def = typeof field.default === 'string' ? field.default : undefined;

  if (type === 'select') {
    if (options === undefined || options.length === 0) {
      out.error(
        `${base}.options`,
        'a select field needs a non-empty options list',
        'the configure page offers nothing to choose',
      );
    } else if (def !== undefined && !options.includes(def)) {
      out.error(
        `${base}.default`,
        `${quote(def)} is not one of the options (${options
          .slice(0, 10)
          .map((o) => quote(String(o)))
          .join(', ')})`,
        'the configure page cannot preselect it',
      );
    }
  } else if (type !== undefined && options !== undefined) {
    out.warning(`${base}.options`, `options apply only to select fields; this one is ${quote(type)}: remove them`);
  }

  if (field.required === true && type !== undefined && NOT_REQUIRABLE.has(type)) {
    out.warning(
      `${base}.required`,
      `required applies only to text, number and password fields (this one is ${quote(type)}): remove it`,
      'the configure page ignores it',
    );
  }
  if (type === 'checkbox' && def !== undefined && def !== 'checked') {
    out.warning(`${base}.default`, `a checkbox default is "checked" (enabled) or absent, not ${quote(def)}`);
  }
  if (type === 'number' && def !== undefined && (def.trim() === '' || !Number.isFinite(Number(def)))) {
    out.warning(`${base}.default`, `${quote(def)} is not a number: write the default as digits such as "10"`);
  }
}
