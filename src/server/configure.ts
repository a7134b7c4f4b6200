import type { ConfigProblem } from '../addon/config.js';
import type { ConfigField } from '../protocol/config-field.js';
import type { Manifest } from '../protocol/manifest.js';
import { contentSection, type FrontData } from './front.js';
import { html, type SafeHtml } from './html.js';
import { installSection } from './install.js';
import { layout } from './page.js';

export interface ConfigurePageInput {
  readonly manifest: Manifest;
  readonly baseUrl: string;
  readonly nonce: string;
  /** Values to show: the installed configuration (reconfigure) or what the user just sent. */
  readonly values: Readonly<Record<string, unknown>>;
  readonly problems?: readonly ConfigProblem[];
  /** The installed config segment, sent back so a password left empty keeps its value. */
  readonly previous?: string;
  /**
   * The password fields that configuration holds a value for: only they say "unchanged" (left
   * empty, they keep it). Default: every password field, when `previous` is given.
   */
  readonly storedPasswords?: readonly string[];
  /** The manifest URL of the configuration just made. */
  readonly manifestUrl?: string;
  /** Posters and "Now on", shown under the install link: the front page of a configurable add-on. */
  readonly front?: FrontData;
  /** A status shown above the install link (an import's progress or summary), already escaped. */
  readonly notice?: SafeHtml;
  /** The served HTTPS guide page, linked from the install section over plain HTTP; none: named in words. */
  readonly httpsGuideUrl?: string;
  /** The server's notes (plain text): what it does for playback (the relay is on). */
  readonly notes?: readonly string[];
}

/** Form field name of a config key: prefixed so keys can never clash with our own fields. */
export const fieldName = (key: string): string => `cfg_${key}`;

/**
 * The generated /configure page: one labelled field per config entry, typed, pre-filled, with
 * errors next to the form and, once valid, the install link. Works without JavaScript.
 */
export function configurePage(input: ConfigurePageInput): string {
  const { manifest, baseUrl, nonce, values, problems = [] } = input;
  const fields = manifest.config ?? [];
  const reconfiguring = input.previous !== undefined;
  const problemOf = (key: string) => problems.find((p) => p.key === key)?.message;
  // The install link comes first once it exists: on a phone the form would push it below the fold.
  // With no required field the defaults make a working add-on: installable before the form.
  const defaultsWork = !fields.some(isRequired) && manifest.behaviorHints?.configurationRequired !== true;
  const body = html`
<p class="lead">${manifest.description}</p>
${(input.notes ?? []).map((note) => html`<p class="note">${note}</p>`)}
${input.notice ?? ''}
${
  input.manifestUrl
    ? html`<section class="result" aria-live="polite"><h2>Ready to install</h2>${installSection(input.manifestUrl, input.httpsGuideUrl)}</section>`
    : defaultsWork && !reconfiguring
      ? html`${installSection(`${baseUrl}/manifest.json`, input.httpsGuideUrl)}<p class="hint">This installs the default settings; choose your own below for an install link of your own.</p>`
      : ''
}
${input.front ? contentSection(input.front) : ''}
${
  problems.length > 0
    ? html`<div class="errors" role="alert"><p><strong>Please fix:</strong></p><ul>${problems.map(
        (p) => html`<li><a href="#field-${p.key}">${labelOf(fields, p.key)}</a> ${p.message}</li>`,
      )}</ul></div>`
    : ''
}
<form method="post" action="${baseUrl}/configure" novalidate>
<h2>${input.manifestUrl || reconfiguring ? 'Settings' : 'Choose your settings'}</h2>
${fields.some(isRequired) ? html`<p class="hint">Fields marked * are required.</p>` : ''}
${fields.map((f) =>
  fieldHtml(f, values[f.key], reconfiguring && (input.storedPasswords?.includes(f.key) ?? true), problemOf(f.key)),
)}
${reconfiguring ? html`<input type="hidden" name="previous" value="${input.previous}">` : ''}
<div><button class="button" type="submit">${reconfiguring ? 'Update install link' : 'Create install link'}</button></div>
</form>`;
  return layout(manifest, nonce, `Configure ${manifest.name}`, body);
}

function labelOf(fields: readonly ConfigField[], key: string): string {
  return fields.find((f) => f.key === key)?.title ?? key;
}

/** The spec applies `required` to text-like and number settings only; a checkbox is never required. */
const isRequired = (field: ConfigField): boolean => field.required === true && field.type !== 'checkbox';

/** `kept`: the installed configuration holds this field's value (a password left empty keeps it). */
function fieldHtml(field: ConfigField, value: unknown, kept: boolean, problem?: string): SafeHtml {
  const id = `field-${field.key}`;
  const name = fieldName(field.key);
  const title = field.title ?? field.key;
  const required = isRequired(field);
  const mark = required ? html` <span aria-hidden="true">*</span>` : '';
  // A problem is shown next to its field and tied to it, so a screen reader reads it on focus.
  const errorId = `error-${field.key}`;
  const invalid = problem ? html` aria-invalid="true" aria-describedby="${errorId}"` : '';
  const error = problem ? html`<span class="field-error" id="${errorId}">${title} ${problem}</span>` : '';
  const wrap = (control: SafeHtml, hint: SafeHtml | '' = '') =>
    html`<div class="field${problem ? ' invalid' : ''}"><label for="${id}">${title}${mark}</label>${error}${control}${hint}</div>`;
  switch (field.type) {
    case 'checkbox':
      return html`<div class="field checkbox"><input id="${id}" name="${name}" type="checkbox" value="true"${
        value === true ? html` checked` : ''
      }${invalid}><label for="${id}">${title}</label>${error}</div>`;
    case 'select':
      return wrap(
        html`<select id="${id}" name="${name}"${required ? html` required` : ''}${invalid}>${(field.options ?? []).map(
          (o) =>
            html`<option value="${o}"${String(value ?? field.default ?? '') === o ? html` selected` : ''}>${o}</option>`,
        )}</select>`,
      );
    case 'password':
      return wrap(
        html`<input id="${id}" name="${name}" type="password" autocomplete="off"${
          kept ? html` placeholder="unchanged"` : ''
        }${required && !kept ? html` required` : ''}${invalid}>`,
        kept
          ? html`<span class="hint">Leave empty to keep the current value.</span>`
          : typeof value === 'string' && value !== '' && !problem
            ? // What was typed is never sent back into the page; say so, or the next submit fails on it.
              html`<span class="hint">Passwords are not shown again: please type it once more.</span>`
            : '',
      );
    default:
      return wrap(
        html`<input id="${id}" name="${name}" type="${field.type === 'number' ? 'number' : 'text'}"${
          field.type === 'number' ? html` step="any" inputmode="decimal"` : ''
        } value="${value ?? field.default ?? ''}"${required ? html` required` : ''}${invalid}>`,
      );
  }
}
