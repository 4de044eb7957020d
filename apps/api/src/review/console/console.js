/* global document, window, location */
// The review console: plain DOM, no framework, no build step; the browser loads these modules as they are.
// This one routes the URL's hash to a view.
import { focusPage } from './dom.js';
import { showDays } from './days.js';
import { showItem } from './item.js';
import { showLookup } from './lookup.js';
import { showQueue } from './queue.js';
import { showReconciliation } from './reconciliation.js';
import { showTrends } from './trends.js';
import { hasToken, loadMe, me, showSignIn, signOut } from './session.js';

export async function route() {
  if (!hasToken()) return showSignIn();
  if (!me) {
    try {
      await loadMe();
    } catch {
      return signOut('Sign in again.');
    }
  }
  const match = /^#\/items\/([0-9a-f-]{36})/.exec(location.hash);
  if (match) await showItem(match[1]);
  else if (location.hash.startsWith('#/reconciliation')) await showReconciliation();
  else if (location.hash.startsWith('#/lookup')) await showLookup();
  else if (location.hash.startsWith('#/days')) await showDays();
  else if (location.hash.startsWith('#/trends')) await showTrends();
  else await showQueue();
  focusPage();
}

document.getElementById('sign-out').addEventListener('click', () => signOut());
window.addEventListener('hashchange', () => void route());
void route();
