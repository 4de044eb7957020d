/* global document, sessionStorage, fetch, URL, setTimeout */
// The reviewer's session: the token lives in this tab's session storage and leaves only as a Bearer header on
// fetch calls to this origin; a 401 anywhere signs out.
import { h, render } from './dom.js';
import { route } from './console.js';

const TOKEN_KEY = 'charge-once.review.token';

/** Who is signed in (GET /review/me), or null. */
export let me = null;

export const hasToken = () => sessionStorage.getItem(TOKEN_KEY) !== null;

export class ApiError extends Error {
  constructor(status, body) {
    const message = Array.isArray(body?.message) ? body.message.join('; ') : (body?.message ?? `request failed (${status})`);
    super(message);
    this.status = status;
    this.body = body;
  }
}

export async function api(method, path, body) {
  const headers = { Authorization: `Bearer ${sessionStorage.getItem(TOKEN_KEY) ?? ''}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = res.headers.get('content-type')?.includes('json') ? await res.json() : null;
  if (res.status === 401) {
    signOut('Your session has ended: sign in again.');
    throw new ApiError(401, data);
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

export function signOut(message) {
  sessionStorage.removeItem(TOKEN_KEY);
  me = null;
  document.getElementById('who').hidden = true;
  showSignIn(message);
}

export function showSignIn(message) {
  const input = h('input', { id: 'token', type: 'password', autocomplete: 'off', required: true, placeholder: 'co_…', 'aria-describedby': 'token-help' });
  const status = h('div', { class: 'form-status' }, message ? h('div', { class: 'error', role: 'alert' }, message) : null);
  const form = h(
    'form',
    {
      class: 'card signin',
      onsubmit: async (event) => {
        event.preventDefault();
        sessionStorage.setItem(TOKEN_KEY, input.value.trim());
        try {
          await loadMe();
          route();
        } catch (error) {
          sessionStorage.removeItem(TOKEN_KEY);
          status.replaceChildren(h('div', { class: 'error', role: 'alert' }, error.status === 403 ? 'This token is not a reviewer token.' : 'That token was not accepted.'));
        }
      },
    },
    h('h1', {}, 'Sign in to the review queue'),
    h('label', { for: 'token' }, 'Reviewer token'),
    input,
    h('p', { id: 'token-help', class: 'muted' }, 'Your token is kept in this browser tab only, and forgotten when you close it or sign out.'),
    status,
    h('button', { type: 'submit', class: 'primary' }, 'Sign in'),
  );
  render(form);
  input.focus();
}

export async function loadMe() {
  me = await api('GET', '/review/me');
  document.getElementById('who-name').textContent = `${me.name} · ${me.role}`;
  document.getElementById('who').hidden = false;
}

/** Saves what the api answers at `path` (an export) under the file name its Content-Disposition gives. */
export async function download(path) {
  const res = await fetch(path, { headers: { Authorization: `Bearer ${sessionStorage.getItem(TOKEN_KEY) ?? ''}` } });
  if (!res.ok) throw new ApiError(res.status, res.headers.get('content-type')?.includes('json') ? await res.json() : null);
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'export.csv';
  const link = h('a', { href: URL.createObjectURL(await res.blob()), download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
