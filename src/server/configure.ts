import type { ConfigProblem } from '../addon/config.js';
import type { ConfigField } from '../protocol/config-field.js';
import type { Manifest } from '../protocol/manifest.js';
import { html, type SafeHtml } from './html.js';
import { installBlock, layout } from './page.js';

export interface ConfigurePageInput {
  readonly manifest: Manifest;
  readonly baseUrl: string;
  readonly nonce: string;
  /** Values to show: the installed configuration (reconfigure) or what the user just sent. */
  readonly values: Readonly<Record<string, unknown>>;
  readonly problems?: readonly ConfigProblem[];
  /** The installed config segment, sent back so a password left empty keeps its value. */
  readonly previous?: string;
  /** The manifest URL of the configuration just made. */
  readonly manifestUrl?: string;
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
  const body = html`
<p class="lead">${manifest.description}</p>
${
  problems.length > 0
    ? html`<div class="errors" role="alert"><p><strong>Please fix:</strong></p><ul>${problems.map(
        (p) => html`<li>${labelOf(fields, p.key)} ${p.message}</li>`,
      )}</ul></div>`
    : ''
}
<form method="post" action="${baseUrl}/configure" novalidate>
${fields.map((f) => fieldHtml(f, values[f.key], input.previous !== undefined))}
${input.previous !== undefined ? html`<input type="hidden" name="previous" value="${input.previous}">` : ''}
<div><button class="button" type="submit">${input.manifestUrl ? 'Update' : 'Create install link'}</button></div>
</form>
${input.manifestUrl ? html`<section class="result" aria-live="polite"><h2>Ready to install</h2>${installBlock(input.manifestUrl)}</section>` : ''}`;
  return layout(manifest, nonce, `Configure ${manifest.name}`, body);
}

function labelOf(fields: readonly ConfigField[], key: string): string {
  return fields.find((f) => f.key === key)?.title ?? key;
}

function fieldHtml(field: ConfigField, value: unknown, reconfiguring: boolean): SafeHtml {
  const id = `field-${field.key}`;
  const name = fieldName(field.key);
  const title = field.title ?? field.key;
  const required = field.required === true && field.type !== 'checkbox';
  const mark = required ? html` <span aria-hidden="true">*</span>` : '';
  switch (field.type) {
    case 'checkbox':
      return html`<div class="field checkbox"><input id="${id}" name="${name}" type="checkbox" value="true"${
        value === true ? html` checked` : ''
      }><label for="${id}">${title}</label></div>`;
    case 'select':
      return html`<div class="field"><label for="${id}">${title}${mark}</label><select id="${id}" name="${name}"${
        required ? html` required` : ''
      }>${(field.options ?? []).map(
        (o) =>
          html`<option value="${o}"${String(value ?? field.default ?? '') === o ? html` selected` : ''}>${o}</option>`,
      )}</select></div>`;
    case 'password':
      return html`<div class="field"><label for="${id}">${title}${mark}</label><input id="${id}" name="${name}" type="password" autocomplete="off"${
        reconfiguring ? html` placeholder="unchanged"` : ''
      }${required && !reconfiguring ? html` required` : ''}>${
        reconfiguring ? html`<span class="hint">Leave empty to keep the current value.</span>` : ''
      }</div>`;
    default:
      return html`<div class="field"><label for="${id}">${title}${mark}</label><input id="${id}" name="${name}" type="${
        field.type === 'number' ? 'number' : 'text'
      }"${field.type === 'number' ? html` step="any" inputmode="decimal"` : ''} value="${
        value ?? field.default ?? ''
      }"${required ? html` required` : ''}></div>`;
  }
}
