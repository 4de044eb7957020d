/* global document, window, setTimeout, clearTimeout */
// The console's page toolkit: elements from data (text, never HTML), formats, and the shared bits of page.
import { minorUnitsOf } from './currency-digits.js';

const app = document.getElementById('app');

/** Builds an element; children may be strings (set as text), nodes, arrays, or null/false (skipped). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  const add = (child) => {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) child.forEach(add);
    else el.append(child instanceof window.Node ? child : document.createTextNode(String(child)));
  };
  children.forEach(add);
  return el;
}

/**
 * An amount in the currency's own minor units, as ISO 4217 counts them: jpy 500 is ¥500, bhd 1250 is BHD 1.250.
 * Formatted from an exact decimal string, never `cents / 100` in floating point.
 */
export function money(cents, currency) {
  const digits = minorUnitsOf(currency);
  const text = String(Math.abs(cents)).padStart(digits + 1, '0');
  const decimal = `${cents < 0 ? '-' : ''}${digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`}`;
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase(), minimumFractionDigits: digits, maximumFractionDigits: digits }).format(decimal);
  } catch {
    return `${decimal} ${currency.toUpperCase()}`;
  }
}

export const dateTime = (iso) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }) : '—');
export const time = (iso) => new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

export function age(iso) {
  const minutes = Math.max(0, Math.floor((Date.now() - Date.parse(iso)) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days`;
}

export const short = (id) => (id ? `${id.slice(0, 8)}…` : '—');
export const pill = (kind, text, title) => h('span', { class: `pill pill-${kind}`, title }, text);

export function toast(text) {
  const el = document.getElementById('toast');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (el.hidden = true), 4000);
}

/** Refusals in words a reviewer acts on: why, and for the grace period, when to try again. */
export function errorBox(error) {
  const details = error.body?.details ?? {};
  const grace = details.evidence?.graceEndsAt;
  let text = details.why ?? error.message;
  if (grace) {
    text = `The provider may still be processing the last request (sent ${time(details.evidence.lastSentAt)}), so "not found" cannot be trusted yet. Try again after ${time(grace)} (in about ${Math.max(1, Math.ceil(details.evidence.remainingMs / 60_000))} min).`;
  }
  const refused = error.status === 409 || error.status === 403;
  return h('div', { class: 'error', role: 'alert' }, h('strong', {}, refused ? 'Refused. ' : 'Error. '), text, refused ? h('div', { class: 'muted small' }, 'Nothing was changed.') : null);
}

export function render(...nodes) {
  app.replaceChildren(...nodes);
}

/** The view just shown gets the focus, from the top, as a new page would. */
export function focusPage() {
  app.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}
